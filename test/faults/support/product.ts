// The whole product as `npm start` runs it (the launcher, every service, one port), in a child
// process that a fault scenario may kill (SIGKILL) or stop (SIGTERM) and start again on the same
// port and data. Runs from source, so nothing is built first.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface ProductProcess {
  url: string;
  pid: number;
  /** What the process printed, for a failure's message. */
  output(): string;
  /** Settles with the exit code (or the signal) when the process has ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts the launcher on `port` with `env` (the database, keys and limits of the scenario) and
 * waits until it serves.
 */
export async function startProductProcess(port: number, env: Record<string, string>): Promise<ProductProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'services/launcher/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 180_000;
  while (!output.includes('is running at')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the product did not start:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    output: () => output,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** Ends a product process still running (SIGKILL) and waits for it: for a suite's after(). */
export async function endProcess(product: ProductProcess | undefined): Promise<void> {
  if (!product) return;
  product.kill('SIGKILL');
  await product.exited;
}
