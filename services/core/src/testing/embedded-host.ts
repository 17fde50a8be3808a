import type { Worker } from 'node:worker_threads';
import { moduleThread } from '../db/embedded.js';
import type { HostAnswer, HostRequest } from './embedded-host-thread.js';

type Request = HostRequest extends infer R ? (R extends HostRequest ? Omit<R, 'id'> : never) : never;

/**
 * One thread of this process that holds every in-memory embedded database its tests make. A
 * database of its own thread costs a second of thread start (a fresh isolate loading PGlite)
 * before PGlite's own; here only PGlite's remains. Tests run one at a time, so the databases of a
 * test file sharing one thread beside the test's own is what the product has: one for the HTTP
 * server, one for the database. The thread does not keep the process alive; if it ends, the next
 * database starts a new one.
 */
class EmbeddedHost {
  private thread?: Promise<Worker>;
  /** Which thread this is: the images a thread keeps end with it. */
  generation = 0;
  private readonly waiting = new Map<number, { resolve(answer: HostAnswer & { ok: true }): void; reject(error: Error): void }>();
  private nextId = 1;

  private start(): Promise<Worker> {
    this.thread ??= new Promise<Worker>((resolve, reject) => {
      this.generation++;
      const worker = moduleThread(import.meta.url, 'embedded-host-thread');
      worker.unref();
      worker.on('message', (answer: HostAnswer) => {
        if (answer.id === 0) return resolve(worker);
        const waiting = this.waiting.get(answer.id);
        this.waiting.delete(answer.id);
        if (answer.ok) waiting?.resolve(answer);
        else waiting?.reject(new Error(`embedded test database: ${answer.message}`));
      });
      worker.on('error', (error) => reject(error));
      worker.on('exit', (code) => {
        this.thread = undefined;
        const error = new Error(`the embedded test databases' thread ended (exit code ${code})`);
        reject(error);
        for (const waiting of this.waiting.values()) waiting.reject(error);
        this.waiting.clear();
      });
    });
    return this.thread;
  }

  async request(request: Request): Promise<HostAnswer & { ok: true }> {
    const worker = await this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  /** Ends the thread and every database it holds. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    if (thread) await (await thread.catch(() => undefined))?.terminate();
  }
}

export const embeddedHost = new EmbeddedHost();
