import { Application, ApplicationExchangeAudience, IDENTITY_APPLICATION_ID, type AppContext } from '@gatehouse/core';
import type { ClientMetadata } from 'oidc-provider';
import { samlUrls } from '../features/saml/paths.js';

/** RFC 8628's grant: a device without a browser of its own polls for the tokens a user approved elsewhere. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8693's grant: an application exchanges a user's token for one to call another application's API. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** The client metadata naming the FAPI profile an application is under (the provider's `features.fapi.profile` reads it). */
export const FAPI_PROFILE_METADATA = 'fapi_profile';

/** What the rest of the provider needs to know about the application behind a client. */
export interface ClientApplication {
  id: string;
  name: string;
  displayName: string;
  status: Application['status'];
  isFirstParty: boolean;
  /** The applications (id and client_id) whose API it may call for a user by token exchange. */
  exchangeAudiences: Array<{ id: string; name: string }>;
  metadata: ClientMetadata;
}

/**
 * The OIDC clients are the applications in the database (client_id = application name). Reads go
 * through a short-lived cache that is dropped whenever an application changes on any node.
 */
export class ClientRegistry {
  private readonly cache = new Map<string, { value: ClientApplication | null; expires: number }>();
  /**
   * Counts the changes heard. A read that was under way when a change arrived may have seen the
   * row as it was: it answers its caller but is not cached, or the old client would outlive the
   * change by a whole TTL.
   */
  private changes = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly context: AppContext,
    private readonly ttlMs = 60_000,
  ) {
    this.unsubscribe = context.broadcast.on('application.changed', ({ clientId }) => {
      this.changes++;
      if (clientId) this.cache.delete(clientId);
      else this.cache.clear();
    });
  }

  /** The enabled application whose client_id this is, or undefined. */
  async find(clientId: string): Promise<ClientApplication | undefined> {
    const cached = this.cache.get(clientId);
    if (cached && cached.expires > Date.now()) return cached.value ?? undefined;
    const changesBefore = this.changes;
    const app = await this.context.dataSource.getRepository(Application).findOneBy({ name: clientId, enabled: true });
    const value = app ? this.toClient(app, await this.exchangeAudiences(app)) : null;
    if (this.changes === changesBefore) this.cache.set(clientId, { value, expires: Date.now() + this.ttlMs });
    return value ?? undefined;
  }

  /** Drops cached copies here and on every other node. */
  invalidate(clientId?: string): void {
    this.context.broadcast.publish('application.changed', { clientId });
  }

  close(): void {
    this.unsubscribe();
  }

  /**
   * The product's own applications (the Identity application, the portal, the console) send codes
   * and signed-out users only to the product's own address (PUBLIC_URL): an address stored for them
   * anywhere else is never used, whoever wrote it.
   */
  private productOwn(app: Application): (uris: string[]) => string[] {
    const { portalClientId, adminClientId } = this.context.config.oidc;
    if (app.id !== IDENTITY_APPLICATION_ID && app.name !== portalClientId && app.name !== adminClientId) return (uris) => uris;
    const base = `${this.context.config.server.publicUrl.replace(/\/+$/, '')}/`;
    return (uris) => uris.filter((uri) => uri.startsWith(base));
  }

  /** The enabled applications a confidential one may exchange users' tokens for. */
  private async exchangeAudiences(app: Application): Promise<Array<{ id: string; name: string }>> {
    if (app.clientType !== 'confidential') return [];
    const rows = await this.context.dataSource
      .getRepository(ApplicationExchangeAudience)
      .find({ where: { applicationId: app.id }, relations: { audience: true } });
    return rows.filter((row) => row.audience?.enabled).map((row) => ({ id: row.audienceId, name: row.audience!.name }));
  }

  /**
   * A SAML application signs its users in through this provider too, as a client only the SAML
   * endpoint uses: codes go to the endpoint alone (in-process, with a secret nobody is given), so
   * the sign-in, its logs and its refusals are those of every application. No consent: a SAML
   * application asks for none.
   */
  private samlClient(app: Application): ClientApplication {
    const stopped = app.status === 'Stopped';
    return {
      id: app.id,
      name: app.name,
      displayName: app.displayName,
      status: app.status,
      isFirstParty: true,
      exchangeAudiences: [],
      metadata: {
        client_id: app.name,
        client_name: app.displayName,
        application_type: 'web',
        grant_types: stopped ? [] : ['authorization_code'],
        response_types: stopped ? [] : ['code'],
        redirect_uris: stopped ? [] : [samlUrls(this.context.config.server.publicUrl).continue],
        post_logout_redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: this.context.secrets.deriveKey(`saml-client:${app.id}`).toString('base64url'),
        id_token_signed_response_alg: 'RS256',
      },
    };
  }

  private toClient(app: Application, exchangeAudiences: Array<{ id: string; name: string }>): ClientApplication {
    if (app.protocol === 'saml') return this.samlClient(app);
    const isPublic = app.clientType === 'public';
    const privateKeyJwt = !isPublic && app.clientAuthentication === 'private_key_jwt';
    // The FAPI 2.0 Security Profile: pushed requests, sender-constrained tokens, private_key_jwt (PKCE
    // S256 and the issuer's audience in client assertions are the provider's part of the profile).
    const fapi2 = app.fapi2 && privateKeyJwt;
    // A stopped application may use no grant: no sign-in starts (GET or POST), no code is redeemed,
    // no token refreshed, no client credentials issued. Signing out still works.
    const grantTypes =
      app.status === 'Stopped'
        ? []
        : [...app.grantTypes, ...(app.deviceFlow ? [DEVICE_CODE_GRANT] : []), ...(exchangeAudiences.length ? [TOKEN_EXCHANGE_GRANT] : [])];
    const usesCode = grantTypes.includes('authorization_code');
    const own = this.productOwn(app);
    const metadata: ClientMetadata = {
      client_id: app.name,
      client_name: app.displayName,
      application_type: 'web',
      grant_types: grantTypes,
      response_types: usesCode ? ['code'] : [],
      redirect_uris: usesCode ? own(app.redirectUris) : [],
      post_logout_redirect_uris: own(app.postLogoutRedirectUris),
      token_endpoint_auth_method: isPublic ? 'none' : app.clientAuthentication,
      id_token_signed_response_alg: app.idTokenSignedResponseAlg,
      // Tokens bound to the application's key (RFC 9449 §5.2): a token request without a proof is refused.
      dpop_bound_access_tokens: app.requireDpop || fapi2,
      // Authorization requests pushed first (RFC 9126 §6), signed by the application (RFC 9101 §10.5).
      require_pushed_authorization_requests: app.requirePar || fapi2,
      require_signed_request_object: app.requireSignedRequestObject,
      ...(fapi2 ? { [FAPI_PROFILE_METADATA]: '2.0' } : {}),
      ...(app.jwks ? { jwks: app.jwks as ClientMetadata['jwks'] } : app.jwksUri ? { jwks_uri: app.jwksUri } : {}),
      // A client authenticating with its key has no secret the provider would accept instead.
      ...(isPublic || privateKeyJwt || !app.clientSecretEncrypted ? {} : { client_secret: this.context.secrets.decrypt(app.clientSecretEncrypted) }),
      ...(app.backchannelLogoutUri
        ? { backchannel_logout_uri: app.backchannelLogoutUri, backchannel_logout_session_required: true }
        : {}),
    };
    return {
      id: app.id,
      name: app.name,
      displayName: app.displayName,
      status: app.status,
      isFirstParty: app.isFirstParty,
      exchangeAudiences,
      metadata,
    };
  }
}
