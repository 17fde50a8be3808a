import { BufferedWriter, sweepSignInAttempts, writeSessionLogs, type AppContext, type SessionLogEntry } from '@gatehouse/core';
import type { Context, Middleware, Next } from 'koa';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import { SessionImpersonations } from '../features/identify-as/session-impersonations.js';
import { AccountDirectory } from './account.js';
import { ClientRegistry } from './clients.js';
import { OidcStore } from './oidc-store.js';
import { ensureSigningKeys, loadSigningKeys, signingKeysFingerprint } from './keys.js';
import { startSweeper } from './postgres-adapter.js';
import { createProvider, type ProviderOptions } from './provider.js';
import { PublishedDocuments } from './published-documents.js';

const KEY_CHECK_INTERVAL_MS = 60_000;

/**
 * Owns the provider instance. oidc-provider fixes its keys at construction, so when the published
 * signing keys change (a rotation on any node, or a retiring key reaching its date) a new instance
 * is built and swapped in; everything it stores lives in the database, so nothing is lost.
 */
export class ProviderHost {
  readonly registry: ClientRegistry;
  private readonly store: OidcStore;
  readonly directory: AccountDirectory;
  /** Which sessions a God user is signed in to as another user (Identify As). */
  readonly impersonations: SessionImpersonations;
  private readonly sessionLog: BufferedWriter<SessionLogEntry>;
  private provider!: Provider;
  private mounted!: Middleware;
  private fingerprint = '';
  private readonly timers: Array<{ stop(): void }> = [];

  private constructor(
    private readonly context: AppContext,
    private readonly options: Pick<ProviderOptions, 'adapterFactory'>,
  ) {
    this.registry = new ClientRegistry(context);
    // A refresh token redeemed by two racing requests: a reuse, as the provider's own check finds one.
    const onReuse = (model: string) => {
      if (model === 'RefreshToken') context.metrics.refreshTokenReuse.inc();
    };
    this.store = new OidcStore(context.dataSource, context.broadcast, { prepare: !context.pglite, onReuse });
    this.directory = new AccountDirectory(context);
    this.impersonations = new SessionImpersonations(context);
    this.sessionLog = new BufferedWriter<SessionLogEntry>(
      (rows) => writeSessionLogs(context.dataSource, rows),
      (error) => context.logger.warn({ err: error.message }, 'session log failed'),
    );
  }

  static async start(context: AppContext, options: Pick<ProviderOptions, 'adapterFactory'> = {}): Promise<ProviderHost> {
    const host = new ProviderHost(context, options);
    const created = await ensureSigningKeys(context);
    if (created.length) context.logger.info({ kids: created }, 'signing keys created');
    await host.reload();
    const keyCheck = setInterval(() => void host.refreshKeys(), KEY_CHECK_INTERVAL_MS);
    keyCheck.unref();
    const offKeys = context.broadcast.on('keys.changed', () => void host.refreshKeys());
    host.timers.push({ stop: () => clearInterval(keyCheck) }, { stop: offKeys });
    if (!options.adapterFactory) {
      host.timers.push(startSweeper(context.dataSource, { intervalMs: context.config.oidc.sweepIntervalMs, logger: context.logger }));
      const attempts = setInterval(() => {
        sweepSignInAttempts(context.dataSource).catch((error: Error) => context.logger.warn({ err: error.message }, 'sweep failed'));
      }, context.config.oidc.sweepIntervalMs);
      attempts.unref();
      host.timers.push({ stop: () => clearInterval(attempts) });
    }
    return host;
  }

  get current(): Provider {
    return this.provider;
  }

  /** Koa middleware serving the provider under /oidc. */
  middleware(): Middleware {
    return (ctx: Context, next: Next) => this.mounted(ctx, next);
  }

  /** Rebuilds the provider if the published keys changed. */
  async refreshKeys(): Promise<void> {
    try {
      if ((await signingKeysFingerprint(this.context)) !== this.fingerprint) await this.reload();
    } catch (error) {
      this.context.logger.warn({ err: (error as Error).message }, 'signing key check failed');
    }
  }

  private async reload(): Promise<void> {
    const { keys, fingerprint } = await loadSigningKeys(this.context);
    this.provider = createProvider(this.context, {
      keys,
      registry: this.registry,
      store: this.store,
      directory: this.directory,
      sessionLog: this.sessionLog,
      impersonations: this.impersonations,
      adapterFactory: this.options.adapterFactory,
    });
    // The key set and discovery document of this instance, served from memory once rendered.
    this.mounted = new PublishedDocuments('/oidc').middleware(mount('/oidc', this.provider as never));
    if (this.fingerprint) this.context.logger.info({ keys: fingerprint }, 'signing keys reloaded');
    this.fingerprint = fingerprint;
  }

  /** Ends a grant and every code and token issued under it, here and in every node's caches. */
  revokeGrant(grantId: string): Promise<void> {
    return this.store.revokeGrant(grantId);
  }

  /** Stops timers and writes the session-log rows still waiting. */
  async close(): Promise<void> {
    for (const timer of this.timers.splice(0)) timer.stop();
    await this.sessionLog.flush();
    this.registry.close();
    this.directory.close();
    this.store.close();
  }
}
