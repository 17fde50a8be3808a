import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AppContext } from '@gatehouse/core';
import { buildApplication, createTestContext } from '@gatehouse/core/testing';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { createApp, type IdpApp } from '../../app.js';

// A software authenticator (a P-256 key, "none" attestation) and a browser with cookies, to drive
// passkey sign-ins and registrations end to end against the provider.

const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 };

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

/** What the browser says a WebAuthn call came from, and what the authenticator signs. */
export interface CeremonyOverrides {
  /** The page's origin in the client data (another site's, for a phishing test). */
  origin?: string;
  /** The RP id the authenticator hashes into its data. */
  rpId?: string;
  /** The challenge answered, in place of the options'. */
  challenge?: string;
  /** The user verified (PIN, biometrics); true unless told. */
  uv?: boolean;
  /** The signature counter to report, in place of the next one. */
  counter?: number;
  /** Signs something else: the signature does not match. */
  forge?: boolean;
}

/** An authenticator holding one passkey for one relying party. */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter of the last use; 0 and never moving with `counting: false` (as synced passkeys do). */
  counter = 0;

  constructor(
    private readonly rp: { id: string; origin: string },
    private readonly options: { counting?: boolean; backedUp?: boolean } = {},
  ) {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The browser's answer to registration options (`RegistrationResponseJSON`). */
  register(options: { challenge: string }, overrides: CeremonyOverrides = {}): Record<string, unknown> {
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, overrides);
    const authData = Buffer.concat([this.authData(overrides, FLAG.AT), this.attestedCredential()]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(authData)]]) as never);
    const response = { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(Buffer.from(attestationObject)), transports: ['internal', 'hybrid'] };
    return { id: this.id, rawId: this.id, type: 'public-key', response, clientExtensionResults: {}, authenticatorAttachment: 'platform' };
  }

  /** The browser's answer to sign-in options (`AuthenticationResponseJSON`), signed with the passkey's key. */
  assert(options: { challenge: string }, overrides: CeremonyOverrides = {}): Record<string, unknown> {
    if (overrides.counter === undefined && this.options.counting !== false) this.counter++;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides);
    const authenticatorData = this.authData(overrides, 0);
    const signed = Buffer.concat([authenticatorData, sha256(overrides.forge ? Buffer.from('something else') : clientDataJSON)]);
    const signature = sign('sha256', signed, this.privateKey);
    const response = { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature) };
    return { id: this.id, rawId: this.id, type: 'public-key', response, clientExtensionResults: {}, authenticatorAttachment: 'platform' };
  }

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: overrides.challenge ?? challenge, origin: overrides.origin ?? this.rp.origin, crossOrigin: false }));
  }

  /** rpIdHash, flags, signature counter (big-endian). */
  private authData(overrides: CeremonyOverrides, extraFlags: number): Buffer {
    const backup = this.options.backedUp ? FLAG.BE | FLAG.BS : 0;
    const flags = FLAG.UP | (overrides.uv === false ? 0 : FLAG.UV) | backup | extraFlags;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(overrides.counter ?? this.counter);
    return Buffer.concat([sha256(overrides.rpId ?? this.rp.id), Buffer.from([flags]), counter]);
  }

  /** AAGUID (zeros: "none" attestation), the credential id with its length, the COSE ES256 public key. */
  private attestedCredential(): Buffer {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    return Buffer.concat([Buffer.alloc(16), length, this.credentialId, this.cosePublicKey()]);
  }

  /** The passkey's public key as a COSE ES256 key, as a registration stores it. */
  cosePublicKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    return Buffer.from(isoCBOR.encode(cose as never));
  }
}

/** A browser: cookies kept by name and path, the XSRF cookie echoed like the portal does, redirects not followed. */
export class TestBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(readonly origin: string) {}

  async request(method: string, url: string, init: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url, this.origin);
    const headers: Record<string, string> = { 'accept-language': 'en', 'user-agent': CHROME_ON_LINUX, ...init.headers };
    const cookie = [...this.cookies.entries()].filter(([, c]) => target.pathname.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`);
    if (cookie.length) headers.cookie = cookie.join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN')?.value;
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = xsrf;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(target, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.remember(line, target.pathname);
    return res;
  }

  /** POSTs JSON; the answer's status and body. */
  async post(url: string, json: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await this.request('POST', url, { json, headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** Follows redirects on this site (an absolute URL of the public address is taken as this server's); answers where they end. */
  async follow(url: string): Promise<URL> {
    let current = new URL(url, this.origin);
    for (let hops = 0; hops < 10; hops++) {
      const res = await this.request('GET', current.pathname + current.search);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return current;
      current = new URL(location, current);
    }
    throw new Error('too many redirects');
  }

  private remember(line: string, pathname: string): void {
    const [pair, ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const cookiePath = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? pathname;
    if (value === '' || attributes.some((a) => /^expires=thu, 01 jan 1970/i.test(a) || /^max-age=0$/i.test(a))) this.cookies.delete(name);
    else this.cookies.set(name, { value, path: cookiePath });
  }
}

export const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** RFC 7636's example verifier and its S256 challenge. */
const PKCE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const PKCE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** The provider on a database of its own, served on a local port, with the portal as a client. */
export interface PasskeyWorld {
  context: AppContext;
  app: IdpApp;
  /** Where the server listens; the public URL (and the relying party) is `http://localhost:<port>`. */
  url: string;
  rp: { id: string; origin: string };
  /** A browser at the sign-in page of a new authorization request of the portal. */
  atLoginPage(): Promise<{ browser: TestBrowser; interaction: string }>;
  /** Follows a finished sign-in to the portal's callback and redeems the code: the tokens. */
  tokensAfter(browser: TestBrowser, redirectTo: string): Promise<{ access_token: string; id_token: string }>;
  close(): Promise<void>;
}

/** Starts the world; `overrides`: configuration values by dotted key. */
export async function startPasskeyWorld(overrides: Record<string, unknown> = {}): Promise<PasskeyWorld> {
  let handler: ReturnType<IdpApp['callback']> | undefined;
  const server: Server = createServer((req, res) => void handler!(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const publicUrl = `http://localhost:${port}`;
  const context = await createTestContext({ overrides: { 'server.publicUrl': publicUrl, 'oidc.portalClientId': 'portal', ...overrides } });
  const redirectUri = `${publicUrl}/auth/callback`;
  await buildApplication(context.dataSource, { id: 'portal', name: 'portal', clientType: 'public', isFirstParty: true, redirectUris: [redirectUri] });
  const dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-portal-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>Gatehouse</title></head><body></body></html>');
  const app = await createApp(context, { portalDist: dist });
  handler = app.callback();
  const url = `http://127.0.0.1:${port}`;
  return {
    context,
    app,
    url,
    rp: { id: 'localhost', origin: publicUrl },
    async atLoginPage() {
      const browser = new TestBrowser(url);
      const params = new URLSearchParams({ client_id: 'portal', response_type: 'code', scope: 'openid', redirect_uri: redirectUri, code_challenge: PKCE_CHALLENGE, code_challenge_method: 'S256' });
      const res = await browser.request('GET', `/oidc/auth?${params}`);
      const interaction = new URL(res.headers.get('location')!, url).searchParams.get('interaction')!;
      await browser.request('GET', '/api/v1/config');
      return { browser, interaction };
    },
    async tokensAfter(browser, redirectTo) {
      const callback = await browser.follow(redirectTo);
      const body = new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, client_id: 'portal', redirect_uri: redirectUri, code_verifier: PKCE_VERIFIER });
      const res = await fetch(`${url}/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      return (await res.json()) as { access_token: string; id_token: string };
    },
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
