import { Application, IDENTITY_APPLICATION_ID, type AppContext } from '@gatehouse/core';
import type { ClientMetadata } from 'oidc-provider';

/** RFC 8628's grant: a device without a browser of its own polls for the tokens a user approved elsewhere. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** What the rest of the provider needs to know about the application behind a client. */
export interface ClientApplication {
  id: string;
  name: string;
  displayName: string;
  status: Application['status'];
  isFirstParty: boolean;
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
    const value = app ? this.toClient(app) : null;
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

  private toClient(app: Application): ClientApplication {
    const isPublic = app.clientType === 'public';
    // A stopped application may use no grant: no sign-in starts (GET or POST), no code is redeemed,
    // no token refreshed, no client credentials issued. Signing out still works.
    const grantTypes = app.status === 'Stopped' ? [] : app.deviceFlow ? [...app.grantTypes, DEVICE_CODE_GRANT] : app.grantTypes;
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
      token_endpoint_auth_method: isPublic ? 'none' : 'client_secret_basic',
      id_token_signed_response_alg: app.idTokenSignedResponseAlg,
      // Tokens bound to the application's key (RFC 9449 §5.2): a token request without a proof is refused.
      dpop_bound_access_tokens: app.requireDpop,
      ...(isPublic || !app.clientSecretEncrypted ? {} : { client_secret: this.context.secrets.decrypt(app.clientSecretEncrypted) }),
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
      metadata,
    };
  }
}
