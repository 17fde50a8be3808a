import { Check, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { AUTHENTICATION_PROVIDERS, AUTHENTICATION_RESULTS } from '../domain/constants.js';
import { Json, TextArray, Timestamp, Uuid, Varchar, oneOf } from './columns.js';
import { User } from './identity.js';

// Log rows keep names as they were at the time and carry no foreign keys to their user or tenant:
// deleting a user or a tenant must not delete or block its history. The one reference is the
// actor (who acted on behalf of the row's user, signed in as them), cleared when that user goes.
// Each table is indexed for date-range queries, alone and with each filter of the Logs page (the
// trigram and metadata indexes are expression indexes of migration LogFilters1764851400000, which
// entities cannot describe).

const LogId = (table: string) =>
  PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: `${table}__pkey` });

@Entity('authentication_logs')
@Index('authentication_logs__actor_id', ['actorId'])
@Index('authentication_logs__date', ['date'])
@Index('authentication_logs__user_name_date', ['userName', 'date'])
@Index('authentication_logs__result_date', ['result', 'date'])
@Index('authentication_logs__user_id_date', ['userId', 'date'])
@Index('authentication_logs__authentication_provider_date', ['authenticationProvider', 'date'])
@Check('authentication_logs__result__check', oneOf('result', AUTHENTICATION_RESULTS))
@Check('authentication_logs__authentication_provider__check', oneOf('authentication_provider', AUTHENTICATION_PROVIDERS))
export class AuthenticationLog {
  @LogId('authentication_logs')
  id: string;
  @Uuid('actor_id', { nullable: true })
  actorId: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'authentication_logs__actor_id__fkey' })
  actor?: Relation<User>;
  @Timestamp('date', { default: () => 'now()' })
  date: Date;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @Varchar('user_name', 256)
  userName: string;
  @Varchar('reason', 500, { nullable: true })
  reason: string | null;
  @Varchar('result', 20)
  result: (typeof AUTHENTICATION_RESULTS)[number];
  @Varchar('authentication_provider', 20, { default: 'Local' })
  authenticationProvider: (typeof AUTHENTICATION_PROVIDERS)[number];
  @Varchar('return_url', 2000, { nullable: true })
  returnUrl: string | null;
  @Varchar('application_name', 200, { nullable: true })
  applicationName: string | null;
  @Varchar('ip', 64, { nullable: true })
  ip: string | null;
  @Varchar('user_agent', 500, { nullable: true })
  userAgent: string | null;
}

@Entity('system_logs')
@Index('system_logs__actor_id', ['actorId'])
@Index('system_logs__date', ['date'])
@Index('system_logs__operation_date', ['operation', 'date'])
@Index('system_logs__tenant_id_date', ['tenantId', 'date'])
@Index('system_logs__user_id_date', ['userId', 'date'])
export class SystemLog {
  @LogId('system_logs')
  id: string;
  @Uuid('actor_id', { nullable: true })
  actorId: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'system_logs__actor_id__fkey' })
  actor?: Relation<User>;
  @Timestamp('date', { default: () => 'now()' })
  date: Date;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @Varchar('user_name', 256, { nullable: true })
  userName: string | null;
  @Uuid('tenant_id', { nullable: true })
  tenantId: string | null;
  @Varchar('tenant_name', 200, { nullable: true })
  tenantName: string | null;
  @Varchar('operation', 60)
  operation: string;
  @Json('metadata', { default: () => "'{}'" })
  metadata: Record<string, unknown>;
}

@Entity('session_logs')
@Index('session_logs__actor_id', ['actorId'])
@Index('session_logs__date', ['date'])
@Index('session_logs__application_name_date', ['applicationName', 'date'])
@Index('session_logs__user_id_date', ['userId', 'date'])
@Index('session_logs__tenant_id_date', ['tenantId', 'date'])
export class SessionLog {
  @LogId('session_logs')
  id: string;
  @Uuid('actor_id', { nullable: true })
  actorId: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'session_logs__actor_id__fkey' })
  actor?: Relation<User>;
  @Timestamp('date', { default: () => 'now()' })
  date: Date;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @Varchar('user_name', 256)
  userName: string;
  @TextArray('roles')
  roles: string[];
  @Varchar('application_name', 200)
  applicationName: string;
  @Uuid('tenant_id', { nullable: true })
  tenantId: string | null;
}

@Entity('external_api_access_logs')
@Index('external_api_access_logs__actor_id', ['actorId'])
@Index('external_api_access_logs__date', ['date'])
@Index('external_api_access_logs__api_entry_date', ['apiEntry', 'date'])
@Index('external_api_access_logs__user_id_date', ['userId', 'date'])
@Index('external_api_access_logs__ip_date', ['ip', 'date'])
export class ExternalApiAccessLog {
  @LogId('external_api_access_logs')
  id: string;
  @Uuid('actor_id', { nullable: true })
  actorId: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'external_api_access_logs__actor_id__fkey' })
  actor?: Relation<User>;
  @Timestamp('date', { default: () => 'now()' })
  date: Date;
  @Varchar('ip', 64, { nullable: true })
  ip: string | null;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @Varchar('user_name', 256, { nullable: true })
  userName: string | null;
  @Varchar('api_entry', 100)
  apiEntry: string;
  @Json('metadata', { default: () => "'{}'" })
  metadata: Record<string, unknown>;
}
