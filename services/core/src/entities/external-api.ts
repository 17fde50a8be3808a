import { Check, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, Int, Json, Timestamp, Varchar, oneOf } from './columns.js';

/** The states of an idempotency key: its call still running, or done with its answer kept. */
export const IDEMPOTENCY_KEY_STATES = ['Running', 'Done'] as const;

/**
 * An idempotency key of the external API, per caller (an application's client credentials, or a
 * user's personal access tokens for one application): the request it was first used with (its
 * SHA-256) and, once that call is done, its answer, replayed to a retry until the row expires. A
 * running call holds its key for a short lease only, so a call cut short does not hold it forever.
 */
@Entity('external_api_idempotency_keys')
@Index('external_api_idempotency_keys__expires_at', ['expiresAt'])
@Check('external_api_idempotency_keys__state__check', oneOf('state', IDEMPOTENCY_KEY_STATES))
export class ExternalApiIdempotencyKey {
  @PrimaryColumn({ name: 'caller', type: 'varchar', length: 200, primaryKeyConstraintName: 'external_api_idempotency_keys__pkey' })
  caller: string;
  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 200, primaryKeyConstraintName: 'external_api_idempotency_keys__pkey' })
  idempotencyKey: string;
  @Varchar('api_entry', 100)
  apiEntry: string;
  @Varchar('request_hash', 64)
  requestHash: string;
  @Varchar('state', 10, { default: 'Running' })
  state: (typeof IDEMPOTENCY_KEY_STATES)[number];
  @Int('response_status', { nullable: true })
  responseStatus: number | null;
  @Json('response_body', { nullable: true })
  responseBody: unknown;
  @CreatedAt()
  createdAt: Date;
  @Timestamp('expires_at')
  expiresAt: Date;
}
