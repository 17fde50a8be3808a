import { randomBytes } from 'node:crypto';
import type { AppContext } from '@gatehouse/core';

/** The NameID formats the identity provider gives: the user's e-mail, or an opaque id per application. */
export type NameIdFormat = 'email' | 'persistent';

/** The model name of pending SAML requests in the provider's storage table (swept with its other expired rows). */
const MODEL = 'SamlRequest';
/** How long a user has to sign in before the service provider's request is forgotten. */
export const PENDING_TTL_SECONDS = 15 * 60;

/** Who signed in, as the product's sign-in said (kept while the user reads the application's disclaimer). */
export interface SignedInUser {
  accountId: string;
  sessionUid?: string;
  /** When the user signed in (seconds). */
  authTime?: number;
  amr?: string[];
}

/** A service provider's request (or a sign-in started from the portal) waiting for the user to sign in. */
export interface PendingRequest {
  applicationId: string;
  /** The application's client_id in the product's own sign-in. */
  clientId: string;
  spEntityId: string;
  /** The AuthnRequest's ID; none in a sign-in started from the portal (the response is unsolicited). */
  requestId?: string;
  acsUrl: string;
  relayState?: string;
  /** The NameID format the request asked for (e-mail or persistent), instead of the application's. */
  nameIdFormat?: NameIdFormat;
  /** Set once the user signed in, while the application's disclaimer waits for their answer. */
  signedIn?: SignedInUser;
}

/**
 * Pending requests, server-side and shared by every node, keyed by a random id that travels as the
 * sign-in's `state`; each is taken once.
 */
export class PendingRequests {
  constructor(private readonly context: AppContext) {}

  async add(request: PendingRequest): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    await this.context.dataSource.query(
      `INSERT INTO oidc_model_instances (model, id, payload, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [MODEL, id, request, PENDING_TTL_SECONDS],
    );
    return id;
  }

  /** The request, removed as it is read; undefined when unknown, already taken or expired. */
  async take(id: string): Promise<PendingRequest | undefined> {
    // In a CTE: the driver answers a bare DELETE … RETURNING as [rows, count].
    const rows: Array<{ payload: PendingRequest }> = await this.context.dataSource.query(
      `WITH taken AS (DELETE FROM oidc_model_instances WHERE model = $1 AND id = $2 AND expires_at > now() RETURNING payload) SELECT payload FROM taken`,
      [MODEL, id],
    );
    return rows[0]?.payload;
  }
}
