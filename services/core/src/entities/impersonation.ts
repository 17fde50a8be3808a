import { Check, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { IDENTIFY_AS_END_REASONS, type IdentifyAsEndReason } from '../domain/constants.js';
import { Timestamp, Uuid, Varchar, oneOf } from './columns.js';
import { User } from './identity.js';

/**
 * A God user signed in as another user (Identify As): the provider session it switched (by its
 * uid, which every token of that session carries), until when, and how it ended.
 */
@Entity('impersonations')
@Index('impersonations__session_uid', ['sessionUid'], { unique: true })
@Index('impersonations__actor_id', ['actorId'])
@Index('impersonations__target_id', ['targetId'])
@Check('impersonations__end_reason__check', oneOf('end_reason', IDENTIFY_AS_END_REASONS))
export class Impersonation {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'impersonations__pkey' })
  id: string;
  /** The God user who acts. */
  @Uuid('actor_id')
  actorId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'impersonations__actor_id__fkey' })
  actor?: Relation<User>;
  /** The user the session is signed in as. */
  @Uuid('target_id')
  targetId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'target_id', foreignKeyConstraintName: 'impersonations__target_id__fkey' })
  target?: Relation<User>;
  @Varchar('session_uid', 64)
  sessionUid: string;
  @Timestamp('started_at', { default: () => 'now()' })
  startedAt: Date;
  @Timestamp('expires_at')
  expiresAt: Date;
  @Timestamp('ended_at', { nullable: true })
  endedAt: Date | null;
  @Varchar('end_reason', 20, { nullable: true })
  endReason: IdentifyAsEndReason | null;
}
