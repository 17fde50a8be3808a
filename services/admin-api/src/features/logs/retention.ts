import type { AppContext } from '@gatehouse/core';
import { purgeLogs } from './repository.js';

/** A running retention: `stop` ends it after the batch under way, if any. */
export interface LogRetention {
  stop(): Promise<void>;
}

/**
 * Deletes the Logs page's rows older than `logs.retentionDays` every `logs.purgeIntervalMs`,
 * without keeping the process alive. The first run comes one interval after start. With several
 * nodes, the one holding the purge lock deletes and the others skip their turn (purgeLogs). A run
 * still going when the next is due makes that one skip; failures are logged, never thrown.
 * A retention of 0 days keeps every row.
 */
export function startLogRetention(context: AppContext): LogRetention {
  const { retentionDays, purgeIntervalMs } = context.config.logs;
  if (retentionDays === 0) return { stop: async () => undefined };
  let running: Promise<void> | undefined;
  let stopping = false;
  const run = () => {
    if (running) return;
    running = purgeLogs(context.dataSource, { retentionDays, shouldStop: () => stopping })
      .then(({ deleted, skipped }) => {
        const total = Object.values(deleted).reduce((sum, count) => sum + count, 0);
        if (total > 0) context.logger.info({ deleted, retentionDays }, 'old log rows deleted');
        else if (skipped) context.logger.debug('log purge left to another node');
      })
      .catch((error: Error) => context.logger.warn({ err: error.message }, 'deleting old log rows failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, purgeIntervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
