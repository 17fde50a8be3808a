import { readFileSync } from 'node:fs';
import {
  ConfidentialClientApplication,
  LogLevel,
  ProtocolMode,
  ResponseMode,
  ServerError,
  type Configuration,
  type INetworkModule,
  type NetworkRequestOptions,
  type NetworkResponse,
} from '@azure/msal-node';
import { ConfigError, resolveConfigPath, type AppContext, type Config, type Logger } from '@gatehouse/core';

/** What a Microsoft sign-in proves about the person, read from the ID token. */
export interface MicrosoftIdentity {
  /** Directory (tenant) the account signed in through. */
  tid: string;
  /** Object id of the account in that directory: with `tid`, the stable key of the link. */
  oid: string;
  /**
   * The account's sign-in name, lower-cased: `preferred_username` (in Entra ID the UPN, which only
   * the directory's own domains can carry), or null when it is not an e-mail address. The `email`
   * claim (Entra's `mail` attribute) is never read: directory administrators may set it to anything.
   */
  email: string | null;
  /**
   * True when the configured tenant vouches for the e-mail: the token comes from it and the account
   * is its own (not a guest whose identity another provider asserted).
   */
  emailVerifiedByTenant: boolean;
  firstName: string | null;
  lastName: string | null;
}

export interface AuthorizationRequest {
  state: string;
  nonce: string;
  /** S256 challenge of the verifier kept with the state. */
  codeChallenge: string;
  redirectUri: string;
}

export interface CodeRedemption {
  code: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/** The two legs of the authorization code flow with Microsoft. */
export interface MicrosoftClient {
  /** Where to send the browser to sign in at Microsoft. */
  authorizationUrl(request: AuthorizationRequest): Promise<string>;
  /** Redeems the code (PKCE verifier, nonce, issuer and audience checked): who signed in. */
  redeemCode(request: CodeRedemption): Promise<MicrosoftIdentity>;
}

/** Builds the client from the configuration; replaced in tests that need no authority at all. */
export type MicrosoftClientFactory = (context: AppContext) => MicrosoftClient;

/**
 * Why talking to Microsoft failed: `unreachable` (network error or the time budget spent),
 * `refused` (Microsoft answered with an OAuth error, e.g. an expired code), `invalid` (an answer we
 * must not trust: wrong issuer, audience or nonce).
 */
export class MicrosoftError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'refused' | 'invalid',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MicrosoftError';
  }
}

/** The fields of an OpenID discovery document the flow needs. */
interface AuthorityMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
}

/** A discovery document is re-read after this long; a stale one still serves while Microsoft is down. */
const METADATA_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Entra adds `email` only when asked; msal-node adds openid, profile and offline_access itself. */
const SCOPES = ['email'];
const CLOCK_SKEW_SECONDS = 5 * 60;

/**
 * msal-node's network module on `fetch`, bounded by one deadline shared by every call of a sign-in
 * step (discovery and token redemption together), so the user waits at most `timeoutMs` for
 * Microsoft whatever the number of calls. msal-node turns any thrown error into a generic
 * `network_error`; the real cause is kept in `failure` for the logs and the error page.
 */
export class FetchNetworkClient implements INetworkModule {
  failure: Error | undefined;

  constructor(private readonly signal: AbortSignal) {}

  sendGetRequestAsync<T>(url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> {
    return this.send<T>('GET', url, options);
  }

  sendPostRequestAsync<T>(url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> {
    return this.send<T>('POST', url, options);
  }

  private async send<T>(method: string, url: string, options: NetworkRequestOptions = {}): Promise<NetworkResponse<T>> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers: options.headers, body: options.body, signal: this.signal, redirect: 'error' });
      text = await response.text();
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      throw this.failure;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // msal-node reads an OAuth error from the body: give it one rather than a parse failure.
      body = { error: response.ok ? 'invalid_response' : 'server_error', error_description: `HTTP ${response.status} without a JSON body` };
    }
    return { headers, body: body as T, status: response.status };
  }
}

/**
 * msal-node only accepts an https authority. A loopback http authority (a test authority on this
 * machine, allowed by the configuration for nothing else) is handed to msal-node under its https
 * spelling: msal-node never calls it, every endpoint it uses comes from `authorityMetadata`.
 */
function msalAuthority(authority: string): string {
  const url = new URL(authority);
  url.protocol = 'https:';
  return url.toString().replace(/\/+$/, '');
}

/** The credential msal-node signs the token request with: the secret, or the certificate's key. */
export function msalCredential(config: Config): Pick<Configuration['auth'], 'clientSecret' | 'clientCertificate'> {
  const settings = config.microsoft;
  if (settings.clientSecret) return { clientSecret: settings.clientSecret };
  const file = resolveConfigPath(config, settings.certificateKeyFile!);
  let privateKey: string;
  try {
    privateKey = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([`microsoft.certificateKeyFile (ENTRA_CERT_KEY_FILE): cannot read ${file} (${(error as Error).message})`]);
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey)) {
    throw new ConfigError([`microsoft.certificateKeyFile (ENTRA_CERT_KEY_FILE): ${file} holds no PEM private key`]);
  }
  const thumbprint = settings.certificateThumbprint!.toLowerCase();
  // A 40-digit thumbprint is the SHA-1 one the Azure portal shows; msal-node wants each under its own name.
  return { clientCertificate: thumbprint.length === 64 ? { thumbprintSha256: thumbprint, privateKey } : { thumbprint, privateKey } };
}

/**
 * msal-node's configuration for one sign-in step. The authority's metadata is given rather than
 * discovered by msal-node, and its host is a known authority, so msal-node makes no call of its own
 * beyond the token request, all through `network`.
 */
export function msalConfiguration(options: {
  settings: Config['microsoft'];
  credential: Pick<Configuration['auth'], 'clientSecret' | 'clientCertificate'>;
  metadata: string;
  network: INetworkModule;
  logger: Logger;
}): Configuration {
  const { settings, credential, metadata, network, logger } = options;
  const authority = msalAuthority(settings.authority);
  return {
    auth: {
      clientId: settings.clientId!,
      authority,
      knownAuthorities: [new URL(authority).host],
      authorityMetadata: metadata,
      protocolMode: ProtocolMode.AAD,
      ...credential,
    },
    system: {
      networkClient: network,
      loggerOptions: {
        logLevel: LogLevel.Error,
        piiLoggingEnabled: false,
        loggerCallback: (_level, message) => logger.warn({ msal: message }, 'msal-node error'),
      },
    },
  };
}

/** The claims of the ID token this flow reads. */
interface IdTokenClaims {
  iss?: string;
  aud?: string | string[];
  exp?: number;
  nonce?: string;
  tid?: string;
  oid?: string;
  idp?: string;
  email?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  name?: string;
}

const looksLikeEmail = (value: unknown): value is string => typeof value === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * Checks what msal-node leaves to the application and reads the identity out of the claims. The
 * signature is not verified: the token comes straight from the token endpoint over TLS, which
 * OpenID Connect Core (3.1.3.7) accepts instead; issuer, audience, expiry and nonce still are.
 */
export function identityFromClaims(
  claims: IdTokenClaims,
  expected: { issuer: string; clientId: string; nonce: string; tenantId: string },
  now = Date.now(),
): MicrosoftIdentity {
  const { tid, oid } = claims;
  if (typeof tid !== 'string' || !tid || typeof oid !== 'string' || !oid) throw new MicrosoftError('invalid', 'ID token without tid or oid');
  // The discovery document of a multi-tenant authority names the issuer with a {tenantid} template.
  const issuer = expected.issuer.replaceAll('{tenantid}', tid);
  if (claims.iss !== issuer) throw new MicrosoftError('invalid', `ID token issuer ${claims.iss} is not ${issuer}`);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.clientId)) throw new MicrosoftError('invalid', 'ID token audience is not this application');
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_SECONDS < now / 1000) throw new MicrosoftError('invalid', 'ID token expired');
  // msal-node compares the nonce only when it is handed one; checked here so that cannot silently stop.
  if (claims.nonce !== expected.nonce) throw new MicrosoftError('invalid', 'ID token nonce does not match');
  const email = looksLikeEmail(claims.preferred_username) ? claims.preferred_username.trim().toLowerCase() : null;
  const [first, ...rest] = (claims.name ?? '').trim().split(/\s+/).filter(Boolean);
  return {
    tid,
    oid,
    email,
    // A guest's token carries `idp`, the provider that really authenticated it: its e-mail is not the tenant's to vouch for.
    emailVerifiedByTenant: tid === expected.tenantId && (!claims.idp || claims.idp === claims.iss),
    firstName: claims.given_name?.trim() || first || null,
    lastName: claims.family_name?.trim() || (rest.length ? rest.join(' ') : null),
  };
}

/**
 * The production client: msal-node's confidential client on the configured authority. A new msal
 * instance serves each sign-in step: msal-node keeps every token it receives (and its throttling
 * state) in its instance, and this flow needs none of them once the user is known.
 */
export class MsalMicrosoftClient implements MicrosoftClient {
  private metadata: { text: string; parsed: AuthorityMetadata; at: number } | undefined;
  private loading: Promise<{ text: string; parsed: AuthorityMetadata }> | undefined;
  private readonly credential: Pick<Configuration['auth'], 'clientSecret' | 'clientCertificate'>;

  constructor(private readonly context: AppContext) {
    this.credential = msalCredential(context.config);
  }

  private get settings(): Config['microsoft'] {
    return this.context.config.microsoft;
  }

  async authorizationUrl(request: AuthorizationRequest): Promise<string> {
    return this.withMsal(async (msal) =>
      msal.getAuthCodeUrl({
        scopes: SCOPES,
        redirectUri: request.redirectUri,
        state: request.state,
        nonce: request.nonce,
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: 'S256',
        responseMode: ResponseMode.QUERY,
        // Lets someone signed in to several Microsoft accounts pick the professional one.
        prompt: 'select_account',
      }),
    );
  }

  async redeemCode(request: CodeRedemption): Promise<MicrosoftIdentity> {
    return this.withMsal(async (msal, metadata) => {
      const result = await msal.acquireTokenByCode(
        { code: request.code, scopes: SCOPES, redirectUri: request.redirectUri, codeVerifier: request.codeVerifier, state: request.state },
        { code: request.code, state: request.state, nonce: request.nonce },
      );
      return identityFromClaims(result.idTokenClaims as IdTokenClaims, {
        issuer: metadata.issuer,
        clientId: this.settings.clientId!,
        nonce: request.nonce,
        tenantId: this.settings.tenantId!,
      });
    });
  }

  /** Runs one step against a fresh msal instance, within the configured time budget. */
  private async withMsal<T>(step: (msal: ConfidentialClientApplication, metadata: AuthorityMetadata) => Promise<T>): Promise<T> {
    const network = new FetchNetworkClient(AbortSignal.timeout(this.settings.timeoutMs));
    try {
      const metadata = await this.authorityMetadata(network);
      const msal = new ConfidentialClientApplication(
        msalConfiguration({ settings: this.settings, credential: this.credential, metadata: metadata.text, network, logger: this.context.logger }),
      );
      return await step(msal, metadata.parsed);
    } catch (error) {
      if (error instanceof MicrosoftError) throw error;
      if (network.failure) throw new MicrosoftError('unreachable', `Microsoft unreachable: ${network.failure.message}`, { cause: network.failure });
      if (error instanceof ServerError) throw new MicrosoftError('refused', `Microsoft answered ${error.errorCode}: ${error.errorMessage}`, { cause: error });
      throw new MicrosoftError('invalid', `Microsoft sign-in failed: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * The authority's OpenID discovery document, read once a day and shared by concurrent sign-ins;
   * while Microsoft cannot be reached, the last one read keeps serving.
   */
  private async authorityMetadata(network: FetchNetworkClient): Promise<{ text: string; parsed: AuthorityMetadata }> {
    const cached = this.metadata;
    if (cached && cached.at + METADATA_MAX_AGE_MS > Date.now()) return cached;
    this.loading ??= (async () => {
      try {
        const url = `${this.settings.authority}/v2.0/.well-known/openid-configuration`;
        // Sign-ins waiting on this read share its outcome, so a network failure must say so itself.
        const { body, status } = await network.sendGetRequestAsync<Partial<AuthorityMetadata>>(url).catch((error: Error) => {
          throw new MicrosoftError('unreachable', `Microsoft discovery unreachable: ${error.message}`, { cause: error });
        });
        const { issuer, authorization_endpoint, token_endpoint, jwks_uri } = body;
        if (status !== 200 || !issuer || !authorization_endpoint || !token_endpoint || !jwks_uri) {
          throw new MicrosoftError('refused', `discovery document of ${this.settings.authority} unusable (HTTP ${status})`);
        }
        const parsed: AuthorityMetadata = { issuer, authorization_endpoint, token_endpoint, jwks_uri, end_session_endpoint: body.end_session_endpoint };
        this.metadata = { text: JSON.stringify(parsed), parsed, at: Date.now() };
        return this.metadata;
      } finally {
        this.loading = undefined;
      }
    })();
    try {
      return await this.loading;
    } catch (error) {
      if (cached) {
        this.context.logger.warn({ err: (error as Error).message }, 'Microsoft discovery failed; using the previous document');
        return cached;
      }
      throw error;
    }
  }
}

/** The default factory: msal-node against the configured authority. */
export const msalClientFactory: MicrosoftClientFactory = (context) => new MsalMicrosoftClient(context);
