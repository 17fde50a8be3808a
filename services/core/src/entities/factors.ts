import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Bool, CreatedAt, TextArray, Timestamp, Uuid, Varchar, oneOf } from './columns.js';
import { User } from './identity.js';

/** What a WebAuthn challenge was issued for. */
export const WEBAUTHN_CHALLENGE_PURPOSES = ['SignIn', 'SecondFactor', 'Register', 'Reauthenticate'] as const;
export type WebAuthnChallengePurpose = (typeof WEBAUTHN_CHALLENGE_PURPOSES)[number];

/** A passkey (WebAuthn credential) of a user: its public key, counter and backup state, and the name the user gave it. */
@Entity('user_passkeys')
@Index('user_passkeys__credential_id', ['credentialId'], { unique: true })
@Index('user_passkeys__user_id', ['userId'])
export class UserPasskey {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'user_passkeys__pkey' })
  id: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_passkeys__user_id__fkey' })
  user?: Relation<User>;
  /** base64url, as the browser gives it. */
  @Varchar('credential_id', 1400)
  credentialId: string;
  @Column({ name: 'public_key', type: 'bytea' })
  publicKey: Buffer;
  @Column({ name: 'sign_count', type: 'bigint', default: 0 })
  signCount: string;
  @TextArray('transports')
  transports: string[];
  /** `singleDevice` or `multiDevice` (a synced passkey). */
  @Varchar('device_type', 20)
  deviceType: string;
  @Bool('backed_up')
  backedUp: boolean;
  @Varchar('aaguid', 36, { nullable: true })
  aaguid: string | null;
  @Varchar('name', 100)
  name: string;
  /** The browser and system it was added on ("Chrome on Windows"). */
  @Varchar('device_hint', 200, { nullable: true })
  deviceHint: string | null;
  @CreatedAt()
  createdAt: Date;
  @Timestamp('last_used_at', { nullable: true })
  lastUsedAt: Date | null;
  @Varchar('last_used_device', 200, { nullable: true })
  lastUsedDevice: string | null;
}

/** A WebAuthn challenge, by its hash: single use, short-lived, bound to an interaction, a user or a session. */
@Entity('webauthn_challenges')
@Index('webauthn_challenges__challenge_hash', ['challengeHash'], { unique: true })
@Index('webauthn_challenges__expires_at', ['expiresAt'])
@Check('webauthn_challenges__purpose__check', oneOf('purpose', WEBAUTHN_CHALLENGE_PURPOSES))
export class WebAuthnChallenge {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webauthn_challenges__pkey' })
  id: string;
  @Varchar('challenge_hash', 64)
  challengeHash: string;
  @Varchar('purpose', 20)
  purpose: WebAuthnChallengePurpose;
  @Varchar('interaction_uid', 255, { nullable: true })
  interactionUid: string | null;
  @Uuid('user_id', { nullable: true })
  userId: string | null;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'webauthn_challenges__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('session_uid', 255, { nullable: true })
  sessionUid: string | null;
  @Timestamp('expires_at')
  expiresAt: Date;
  @Timestamp('consumed_at', { nullable: true })
  consumedAt: Date | null;
  @CreatedAt()
  createdAt: Date;
}

/** One of a user's ten recovery codes, by its hash; used once. */
@Entity('user_recovery_codes')
@Index('user_recovery_codes__user_id_code_hash', ['userId', 'codeHash'], { unique: true })
export class UserRecoveryCode {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'user_recovery_codes__pkey' })
  id: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_recovery_codes__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('code_hash', 64)
  codeHash: string;
  @CreatedAt()
  createdAt: Date;
  @Timestamp('used_at', { nullable: true })
  usedAt: Date | null;
}

/** A provider session as its user sees it in their profile: where and when it began, when last used. */
@Entity('user_sessions')
@Index('user_sessions__user_id_last_seen_at', ['userId', 'lastSeenAt'])
export class UserSession {
  @PrimaryColumn({ name: 'session_uid', type: 'varchar', length: 255, primaryKeyConstraintName: 'user_sessions__pkey' })
  sessionUid: string;
  @Uuid('user_id')
  userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_sessions__user_id__fkey' })
  user?: Relation<User>;
  @Varchar('user_agent', 500, { nullable: true })
  userAgent: string | null;
  @Varchar('ip', 64, { nullable: true })
  ip: string | null;
  @TextArray('amr')
  amr: string[];
  @Timestamp('started_at', { default: () => 'now()' })
  startedAt: Date;
  @Timestamp('last_seen_at', { default: () => 'now()' })
  lastSeenAt: Date;
  /** When the user last confirmed who they are in this session (for changes of their factors). */
  @Timestamp('reauthenticated_at', { nullable: true })
  reauthenticatedAt: Date | null;
  @Timestamp('ended_at', { nullable: true })
  endedAt: Date | null;
}
