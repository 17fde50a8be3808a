import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword, type AppContext, type User } from '@gatehouse/core';
import { buildApplication, buildUser, createTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { createApp, type IdpApp } from '../../../app.js';

export const PASSWORD = 'Correct-Horse-42!';
export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
export const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** RFC 7636's example verifier and its S256 challenge. */
const PKCE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const PKCE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** An answer, its status and JSON body. */
export interface Answer<B = Record<string, unknown>> {
  status: number;
  body: B;
  headers: Record<string, string>;
}

/** The identity provider on a database of its own, with the portal as a first-party public client. */
export interface Idp {
  context: AppContext;
  app: IdpApp;
  server: ReturnType<IdpApp['callback']>;
  portal: string;
  callback: string;
}

/** The token endpoint's answer to the portal. */
export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

/** Starts the provider (`overrides`: configuration values by dotted key); close its app after the suite. */
export async function startIdp(overrides: Record<string, unknown> = {}): Promise<Idp> {
  // Wrong codes are what the tests count: the per-address limits over the lockout stay out of the
  // way, the requests per minute too (with Redis, every suite of the run counts on 127.0.0.1).
  const context = await createTestContext({
    overrides: {
      'oidc.sweepIntervalMs': 3_600_000,
      'security.signInRequestsPerMinute': 1_000_000,
      'security.failuresPerAddressPerHour': 1_000_000,
      'security.failuresPerAccountAndAddressPerDay': 1_000_000,
      ...overrides,
    },
  });
  const portal = context.config.oidc.portalClientId;
  const callback = `${context.config.server.publicUrl}/auth/callback`;
  await buildApplication(context.dataSource, { id: portal, name: portal, displayName: 'Portal', clientType: 'public', isFirstParty: true, redirectUris: [callback] });
  const dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-portal-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>Gatehouse</title></head><body></body></html>');
  const app = await createApp(context, { portalDist: dist });
  return { context, app, server: app.callback(), portal, callback };
}

/** A user who signs in with `PASSWORD`. */
export async function userWithPassword(idp: Idp, overrides: Partial<User> = {}): Promise<User> {
  return buildUser(idp.context.dataSource, { passwordHash: await hashPassword(PASSWORD), passwordChangedAt: new Date(), ...overrides });
}

/**
 * A portal access token for the user issued without a sign-in (none is possible for some accounts),
 * in the provider session `sessionUid` when given.
 */
export async function issuedToken(idp: Idp, user: User, sessionUid?: string, clientId = idp.portal): Promise<string> {
  const provider = idp.app.host.current;
  const client = await provider.Client.find(clientId);
  const grant = new provider.Grant({ accountId: user.id, clientId });
  grant.addOIDCScope('openid');
  const grantId = await grant.save();
  return new provider.AccessToken({ accountId: user.id, client: client!, grantId, scope: 'openid', gty: 'authorization_code', sessionUid }).save();
}

const answerOf = <B>(res: request.Response): Answer<B> => ({ status: res.status, body: res.body as B, headers: res.headers as Record<string, string> });

/** A call of the self-service API with the portal's access token. */
export async function api<B = Record<string, unknown>>(idp: Idp, method: 'get' | 'post' | 'delete', url: string, token: string, json?: unknown, userAgent = FIREFOX): Promise<Answer<B>> {
  let req = request(idp.server)[method](url).set('Authorization', `Bearer ${token}`).set('User-Agent', userAgent).set('Accept-Language', 'en');
  if (json !== undefined) req = req.send(json as object);
  return answerOf<B>(await req);
}

/** Redeems a refresh token at the token endpoint, as the portal renews its tokens. */
export async function refresh(idp: Idp, refreshToken: string): Promise<Answer<{ error?: string; refresh_token?: string; access_token?: string }>> {
  const res = await request(idp.server)
    .post('/oidc/token')
    .type('form')
    .send({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: idp.portal });
  return answerOf(res);
}

/** The path and query of an address of the provider (its public URL is not where the test listens). */
const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return `${parsed.pathname}${parsed.search}`;
};

/**
 * A browser of its own (its own cookies: its own provider session) signing in to the portal
 * through the provider's authorization code flow with PKCE, as the portal does.
 */
export class PortalBrowser {
  private readonly agent: ReturnType<typeof request.agent>;
  private xsrf = '';

  /**
   * `offline`: asks for `offline_access` with consent, as an application that keeps its refresh
   * token past the session does.
   */
  constructor(
    private readonly idp: Idp,
    readonly userAgent = FIREFOX,
    private readonly offline = false,
  ) {
    this.agent = request.agent(idp.server);
  }

  /** Opens an authorization request of the portal: the browser lands on the sign-in page. */
  async start(): Promise<void> {
    const query = new URLSearchParams({
      client_id: this.idp.portal,
      response_type: 'code',
      scope: this.offline ? 'openid offline_access' : 'openid',
      ...(this.offline ? { prompt: 'consent' } : {}),
      redirect_uri: this.idp.callback,
      code_challenge: PKCE_CHALLENGE,
      code_challenge_method: 'S256',
      state: 'state',
    });
    const auth = await this.agent.get(`/oidc/auth?${query}`).set('User-Agent', this.userAgent);
    expect(auth.status, auth.text).to.be.within(300, 399);
    const config = await this.agent.get('/api/v1/config').set('User-Agent', this.userAgent);
    this.xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(config.headers['set-cookie']))![1]!;
  }

  /** A call of the sign-in API, as the login page makes it. */
  async account(url: string, json: object): Promise<Answer> {
    const res = await this.agent.post(url).set('User-Agent', this.userAgent).set('X-XSRF-TOKEN', this.xsrf).set('Accept-Language', 'en').send(json);
    return answerOf(res);
  }

  /** The password step. */
  login(userName: string, password = PASSWORD): Promise<Answer> {
    return this.account('/api/v1/account/login', { userName, password });
  }

  /** Follows a finished sign-in back to the portal (approving the consent asked on the way) and redeems its code. */
  async finish(redirectTo: string): Promise<Tokens> {
    let location = redirectTo;
    for (let hops = 0; !location.startsWith(this.idp.callback); hops++) {
      expect(hops, 'redirects').to.be.below(10);
      const consent = new URL(location, 'http://localhost').searchParams.get('interaction');
      if (consent) {
        const approved = await this.account('/api/v1/account/consent', { approve: true, interaction: consent });
        expect(approved.body, JSON.stringify(approved.body)).to.include({ success: true });
        location = approved.body.redirectTo as string;
        continue;
      }
      const res = await this.agent.get(pathOf(location)).set('User-Agent', this.userAgent);
      expect(res.status, res.text).to.be.within(300, 399);
      location = res.headers.location!;
    }
    const code = new URL(location).searchParams.get('code');
    expect(code, location).to.be.a('string');
    const res = await request(this.idp.server)
      .post('/oidc/token')
      .type('form')
      .send({ grant_type: 'authorization_code', code: code!, client_id: this.idp.portal, redirect_uri: this.idp.callback, code_verifier: PKCE_VERIFIER });
    expect(res.status, res.text).to.equal(200);
    return res.body as Tokens;
  }

  /** The whole sign-in of a user with no second factor. */
  async signIn(userName: string): Promise<Tokens> {
    await this.start();
    const login = await this.login(userName);
    expect(login.body, JSON.stringify(login.body)).to.include({ success: true });
    return this.finish(login.body.redirectTo as string);
  }
}
