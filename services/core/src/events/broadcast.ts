import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';


export interface BroadcastEvents {
  /** An application (OIDC client) was created, changed or deleted: drop cached copies. */
  'application.changed': { clientId?: string };
  /** Signing keys were added or retired: reload them. */
  'keys.changed': Record<string, never>;
  /** A user's own fields or state changed (profile, lock, draft, password): drop cached copies. */
  'user.changed': { userId?: string };
  /** Memberships, group members or role definitions changed: drop cached effective roles. */
  'roles.changed': { userId?: string };
  /** Provider tokens were revoked: drop cached copies (by id, or every token of a grant). */
  'oidc.invalidated': { model?: string; id?: string; grantId?: string; accountId?: string };
  /** A security setting (password policy, lockout, token lifetimes, group domains) was changed: reread it. */
  'settings.changed': { name?: string };
  /** A God user's signing in as another user (Identify As) ended: what was opened under it closes. */
  'impersonation.ended': { impersonationId: string };
}

type Name = keyof BroadcastEvents;

/**
 * Tells every node of the deployment that something cached changed. In-process always; through
 * Redis pub/sub as well when Redis is configured, so the other nodes hear it too.
 */
export class Broadcast {
  private readonly local = new EventEmitter();
  private readonly origin = randomUUID();
  private subscriber?: Redis;

  constructor(
    private readonly redis?: Redis,
    private readonly logger?: Logger,
    /** The Redis channel of the deployment's nodes (`<redis.keyPrefix>:broadcast`). */
    private readonly channel = 'gatehouse:broadcast',
  ) {
    this.local.setMaxListeners(100);
  }

  /** Starts listening to the other nodes (no-op without Redis). */
  async start(): Promise<void> {
    if (!this.redis || this.subscriber) return;
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('error', (error: Error) => this.logger?.warn({ err: error.message }, 'broadcast subscriber error'));
    this.subscriber.on('message', (_channel: string, raw: string) => {
      try {
        const message = JSON.parse(raw) as { origin: string; name: Name; payload: unknown };
        if (message.origin !== this.origin) this.local.emit(message.name, message.payload);
      } catch (error) {
        this.logger?.warn({ err: (error as Error).message }, 'unreadable broadcast message');
      }
    });
    await this.subscriber.subscribe(this.channel).catch((error: Error) => this.logger?.warn({ err: error.message }, 'broadcast subscribe failed'));
  }

  publish<N extends Name>(name: N, payload: BroadcastEvents[N]): void {
    this.local.emit(name, payload);
    this.redis
      ?.publish(this.channel, JSON.stringify({ origin: this.origin, name, payload }))
      .catch((error: Error) => this.logger?.warn({ err: error.message, name }, 'broadcast publish failed'));
  }

  /** Reaches the other nodes only (through Redis); nothing happens here. */
  publishToOthers<N extends Name>(name: N, payload: BroadcastEvents[N]): void {
    this.redis
      ?.publish(this.channel, JSON.stringify({ origin: this.origin, name, payload }))
      .catch((error: Error) => this.logger?.warn({ err: error.message, name }, 'broadcast publish failed'));
  }

  on<N extends Name>(name: N, listener: (payload: BroadcastEvents[N]) => void): () => void {
    this.local.on(name, listener as (payload: unknown) => void);
    return () => this.local.off(name, listener as (payload: unknown) => void);
  }

  stop(): void {
    this.subscriber?.disconnect();
    this.local.removeAllListeners();
  }
}
