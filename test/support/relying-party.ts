// A relying party as a business application runs one, for browser tests: a small server on
// 127.0.0.1 that signs users in through the provider (authorization code + PKCE, by openid-client).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';

/**
 * A relying party as a business application runs one: `/login` sends the browser to the provider
 * (code + PKCE), `/callback` redeems the code with the client's secret and shows who signed in.
 */
export class RelyingParty {
  private server?: http.Server;
  private config?: oidc.Configuration;
  private readonly pending = new Map<string, string>();
  /** The ID token claims of each sign-in, oldest first. */
  readonly signIns: oidc.IDToken[] = [];
  url = '';

  /** `scope`: what `/login` asks for. */
  constructor(private readonly scope = 'openid profile email') {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        res.statusCode = 500;
        res.end(`relying party error: ${error.message}`);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The client it plays: confidential with its secret, or public (PKCE alone) without one. */
  async configure(issuer: string, clientId: string, secret?: string): Promise<void> {
    const authentication = secret ? oidc.ClientSecretBasic(secret) : oidc.None();
    this.config = await oidc.discovery(new URL(issuer), clientId, secret, authentication, { execute: [oidc.allowInsecureRequests] });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/login') {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      this.pending.set(state, verifier);
      const target = oidc.buildAuthorizationUrl(this.config!, {
        redirect_uri: `${this.url}/callback`,
        scope: this.scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      res.writeHead(302, { location: target.href }).end();
      return;
    }
    if (url.pathname === '/callback') {
      const state = url.searchParams.get('state') ?? '';
      const tokens = await oidc.authorizationCodeGrant(this.config!, url, { pkceCodeVerifier: this.pending.get(state), expectedState: state });
      const claims = tokens.claims()!;
      this.signIns.push(claims);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>RP</title><h1>Signed in as ${String(claims.email)}</h1>`);
      return;
    }
    res.writeHead(404).end();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
