import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddedServerOptions } from './embedded-server.js';

export interface EmbeddedPostgres {
  /** A postgres:// URL the ordinary `pg` driver connects to; it stays the same across restarts. */
  url: string;
  /** Closes the database cleanly (everything written is on disk) and ends its thread. */
  stop(): Promise<void>;
  /**
   * Ends the database's thread abruptly, as a crash would; a durable database is started again on
   * the same port. For the tests of that recovery.
   */
  crash(): Promise<void>;
  /** How many times the database was started again after its thread ended unexpectedly. */
  readonly restarts: number;
}

export interface EmbeddedEvents {
  /** The thread ended unexpectedly; `restarting` when it is started again. */
  onCrash?(detail: { error: string; restarting: boolean }): void;
  onRestart?(detail: { attempt: number; ms: number }): void;
}

/** Run from source (tsx): the worker is TypeScript too, and tsx is registered in its thread first. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The ES module entry of tsx's registration API, read from its package's exports. */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!;
  return path.join(path.dirname(manifest), exported.import.default);
}

/**
 * A thread running the module `name` beside `base` (a module's URL): its `.ts` source when this
 * process runs from source, with tsx registered in the thread first; its build otherwise.
 */
export function moduleThread(base: string, name: string, workerData?: unknown): Worker {
  const url = new URL(`./${name}${FROM_SOURCE ? '.ts' : '.js'}`, base);
  if (!FROM_SOURCE) return new Worker(url, { workerData });
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const load = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(load, { eval: true, workerData });
}

function newWorker(settings: EmbeddedServerOptions): Worker {
  return moduleThread(import.meta.url, 'embedded-worker', settings);
}

/** How long a clean stop may take before the thread is ended. */
const STOP_TIMEOUT_MS = 15_000;

/** The longest wait between two attempts to start a crashed database again. */
const MAX_RESTART_DELAY_MS = 5_000;

/**
 * Starts PGlite in a worker thread of its own, served on a loopback port, so its queries use the
 * second core instead of competing with HTTP on the main thread. A durable database (`dataDir`)
 * whose thread ends unexpectedly is started again on the same port: meanwhile connections are
 * refused, which the HTTP layer answers with 503. An in-memory one (tests) is not: its data died
 * with it.
 */
export async function startEmbeddedPostgres(options: { dataDir?: string; port?: number; maxConnections: number } & EmbeddedEvents): Promise<EmbeddedPostgres> {
  const settings: EmbeddedServerOptions = { dataDir: options.dataDir, port: options.port ?? 0, maxConnections: options.maxConnections };
  let current = await startWorker(settings);
  // Restarts keep the first port: the pool's URL stays valid.
  settings.port = current.port;
  let stopping = false;
  let restarts = 0;

  const watch = (running: RunningWorker) => {
    void running.ended.then(async (error) => {
      if (stopping || running !== current) return;
      const restarting = settings.dataDir !== undefined;
      options.onCrash?.({ error, restarting });
      if (!restarting) return;
      for (let attempt = 1; !stopping; attempt++) {
        const started = Date.now();
        try {
          current = await startWorker(settings);
          restarts++;
          options.onRestart?.({ attempt, ms: Date.now() - started });
          watch(current);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** attempt)));
        }
      }
    });
  };
  watch(current);

  return {
    url: `postgres://postgres:postgres@127.0.0.1:${settings.port}/postgres?sslmode=disable`,
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      await current.stop();
    },
    async crash() {
      await current.worker.terminate();
    },
  };
}

interface RunningWorker {
  worker: Worker;
  port: number;
  /** Settles when the thread ends, with why when that was not asked for. */
  ended: Promise<string>;
  stop(): Promise<void>;
}

function startWorker(settings: EmbeddedServerOptions): Promise<RunningWorker> {
  return new Promise((resolve, reject) => {
    const worker = newWorker(settings);
    let ready = false;
    let exited = false;
    let stopRequested = false;
    let lastError = 'the database thread ended';
    let stopped: () => void = () => undefined;
    const ended = new Promise<string>((settle) => {
      worker.once('exit', (code) => {
        exited = true;
        stopped();
        if (!ready) reject(new Error(`the embedded database did not start: ${lastError}`));
        settle(stopRequested ? '' : `${lastError} (exit code ${code})`);
      });
    });
    worker.on('error', (error) => (lastError = error.message));
    worker.on('message', (message: { type: string; port?: number; message?: string }) => {
      if (message.type === 'error') lastError = message.message ?? lastError;
      if (message.type !== 'ready') return;
      ready = true;
      resolve({
        worker,
        port: message.port!,
        ended,
        stop: () =>
          new Promise<void>((done) => {
            stopRequested = true;
            if (exited) return done();
            stopped = done;
            worker.postMessage('stop');
            // A database that cannot close within this is ended: its last checkpoint stands.
            setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS).unref();
          }),
      });
    });
  });
}
