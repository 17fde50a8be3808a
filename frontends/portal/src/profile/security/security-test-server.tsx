import { jsonResponse } from '@gatehouse/frontend-shared/testing';
import { screen, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { Passkey, RecoveryCodes, SecurityOverview, UserSessionInfo } from '../../api/portal-api';
import { createTestI18n, myProfile, renderSignedIn } from '../../test-utils';
import SecuritySection from './SecuritySection';

/** The password the fake server accepts. */
export const PASSWORD = 'Correct horse 1!';
/** The authenticator code the fake server accepts. */
export const TOTP_CODE = '123456';
export const CREATION_OPTIONS = { challenge: 'YWRk', rp: { id: 'localhost', name: 'Gatehouse' }, user: { id: 'dQ', name: 'jane', displayName: 'Jane' }, pubKeyCredParams: [] };
export const NEW_CREDENTIAL = { id: 'cred-9', rawId: 'cred-9', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'AA' }, clientExtensionResults: {} };
export const TOTP_ENROLMENT = { secret: 'JBSWY3DPEHPK3PXPJBSW', otpauthUri: 'otpauth://totp/Gatehouse:jane%40example.com?secret=JBSWY3DPEHPK3PXPJBSW&issuer=Gatehouse' };
export const RECOVERY: RecoveryCodes = {
  codes: ['a1b2c-d3e4f', 'g5h6i-j7k8l', 'm9n0p-q1r2s', 't3u4v-w5x6y', 'z7a8b-c9d0e', 'f1g2h-i3j4k', 'l5m6n-o7p8q', 'r9s0t-u1v2w', 'x3y4z-a5b6c', 'd7e8f-g9h0i'],
  generatedAt: '2026-03-04T09:10:11.000Z',
};

const inTenMinutes = () => new Date(Date.now() + 10 * 60_000).toISOString();

export function passkey(overrides: Partial<Passkey> & Pick<Passkey, 'id' | 'name'>): Passkey {
  return {
    createdAt: '2026-01-02T08:00:00.000Z',
    lastUsedAt: null,
    lastUsedDevice: null,
    deviceHint: null,
    backedUp: false,
    deviceType: 'singleDevice',
    ...overrides,
  };
}

export function session(overrides: Partial<UserSessionInfo> & Pick<UserSessionInfo, 'id'>): UserSessionInfo {
  return {
    current: false,
    browser: 'Firefox 133 on Linux',
    ip: '198.51.100.7',
    startedAt: '2026-02-01T08:00:00.000Z',
    lastSeenAt: '2026-02-03T18:30:00.000Z',
    amr: ['pwd'],
    applications: [],
    ...overrides,
  };
}

export function overview(overrides: Partial<SecurityOverview> = {}): SecurityOverview {
  return {
    passkeysOffered: true,
    passkeys: [],
    totp: { enrolled: false, enrolledAt: null },
    recoveryCodes: { remaining: 0, generatedAt: null },
    secondFactorRequired: false,
    phishingResistantRequired: false,
    recentUntil: inTenMinutes(),
    ...overrides,
  };
}

type Answer = (request: Request, body: unknown) => Response | Promise<Response>;

export interface SecurityServer {
  state: SecurityOverview;
  sessions: UserSessionInfo[];
  /** Every call, `METHOD /path` with its JSON body. */
  calls: Array<{ route: string; body: unknown }>;
  /** The bodies sent to one route. */
  sent: (route: string) => unknown[];
  /** Answers the next call of `route` with `response`, before the usual answer. */
  once: (route: string, response: Response) => void;
}

const refusal = (status: number, code: string, message: string) => jsonResponse({ code, message, errors: [] }, status);

/**
 * A fake of the profile API's "My security" routes over `state` and `sessions`: it keeps what the
 * calls change, accepts only {@link PASSWORD} and {@link TOTP_CODE}, and records every call.
 */
export function securityServer(initial: Partial<SecurityOverview> = {}, sessions: UserSessionInfo[] = []): SecurityServer {
  const server: SecurityServer = {
    // Copies: what the calls change stays in this server, not in the test's fixtures.
    state: overview(structuredClone(initial)),
    sessions: structuredClone(sessions),
    calls: [],
    sent: (route) => server.calls.filter((call) => call.route === route).map((call) => call.body),
    once: (route, response) => queued.push({ route, response }),
  };
  const queued: Array<{ route: string; response: Response }> = [];
  const { state } = server;

  const routes: Array<[RegExp, Answer]> = [
    [/^GET \/api\/v1\/profile$/, () => jsonResponse(myProfile())],
    [/^GET \/api\/v1\/profile\/security$/, () => jsonResponse(state)],
    [
      /^POST \/api\/v1\/profile\/reauthenticate$/,
      (_, body) => {
        if ((body as { password?: string }).password !== PASSWORD) return refusal(400, 'account.invalid_password', 'The password is not correct.');
        state.recentUntil = inTenMinutes();
        return jsonResponse({ success: true, errors: [], recentUntil: state.recentUntil });
      },
    ],
    [/^POST \/api\/v1\/profile\/passkeys\/options$/, () => jsonResponse({ options: CREATION_OPTIONS })],
    [
      /^POST \/api\/v1\/profile\/passkeys$/,
      () => {
        const added = passkey({ id: 'pk-new', name: 'Chrome on Linux', createdAt: new Date().toISOString(), deviceHint: 'Chrome on Linux' });
        state.passkeys.push(added);
        return jsonResponse(added, 201);
      },
    ],
    [
      /^PATCH \/api\/v1\/profile\/passkeys\/([^/]+)$/,
      (request, body) => {
        const id = decodeURIComponent(new URL(request.url).pathname.split('/').pop()!);
        const found = state.passkeys.find((item) => item.id === id);
        if (!found) return refusal(404, 'errors.not_found', 'Not found');
        found.name = (body as { name: string }).name;
        return jsonResponse(found);
      },
    ],
    [
      /^DELETE \/api\/v1\/profile\/passkeys\/([^/]+)$/,
      (request) => {
        const id = decodeURIComponent(new URL(request.url).pathname.split('/').pop()!);
        state.passkeys = state.passkeys.filter((item) => item.id !== id);
        return jsonResponse({ success: true, errors: [] });
      },
    ],
    [/^POST \/api\/v1\/profile\/totp$/, () => jsonResponse(TOTP_ENROLMENT)],
    [
      /^POST \/api\/v1\/profile\/totp\/(confirm|disable)$/,
      (request, body) => {
        if ((body as { code?: string }).code !== TOTP_CODE) return refusal(400, 'account.invalid_code', 'The code is not valid.');
        const enrolled = new URL(request.url).pathname.endsWith('/confirm');
        state.totp = { enrolled, enrolledAt: enrolled ? new Date().toISOString() : null };
        return jsonResponse({ success: true, errors: [] });
      },
    ],
    [
      /^POST \/api\/v1\/profile\/recoveryCodes$/,
      () => {
        state.recoveryCodes = { remaining: RECOVERY.codes.length, generatedAt: RECOVERY.generatedAt };
        return jsonResponse(RECOVERY);
      },
    ],
    [/^GET \/api\/v1\/profile\/sessions$/, () => jsonResponse({ sessions: server.sessions })],
    [
      /^DELETE \/api\/v1\/profile\/sessions\/([^/]+)$/,
      (request) => {
        const id = decodeURIComponent(new URL(request.url).pathname.split('/').pop()!);
        server.sessions = server.sessions.filter((item) => item.id !== id);
        return jsonResponse({ success: true, errors: [], ended: 1 });
      },
    ],
    [
      /^POST \/api\/v1\/profile\/sessions\/endOthers$/,
      () => {
        const ended = server.sessions.filter((item) => !item.current).length;
        server.sessions = server.sessions.filter((item) => item.current);
        return jsonResponse({ success: true, errors: [], ended });
      },
    ],
  ];

  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
      const route = `${request.method} ${new URL(request.url).pathname}`;
      const text = await request.clone().text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      server.calls.push({ route, body });
      const next = queued.findIndex((entry) => entry.route === route);
      if (next >= 0) return queued.splice(next, 1)[0]!.response;
      const answer = routes.find(([pattern]) => pattern.test(route))?.[1];
      return answer ? answer(request, body) : refusal(404, 'errors.route_not_found', 'Not found');
    }),
  );
  return server;
}

/** The 403 of a change made too long after signing in. */
export const reauthenticationRequired = () =>
  refusal(403, 'account.reauthentication_required', 'For your security, confirm your password (or sign in again) before changing your second factor.');

/** Renders "My security" as the profile shows it at /profile/security. */
export async function renderSecurity() {
  const i18n = await createTestI18n('en');
  return renderSignedIn(<SecuritySection />, { i18n, route: '/profile/security' });
}

/** The section whose heading is `title`, once the overview is in. */
export async function section(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: 'h2' });
  return heading.closest('section')!;
}

/** The open dialog whose title is `title` (a dialog rendered while closed is hidden, not absent). */
export function dialog(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find((modal) => modal.querySelector('.ant-modal-title')?.textContent === title);
    expect(found, `a dialog titled "${title}"`).toBeDefined();
    expect(found).toBeVisible();
    return found!;
  });
}
