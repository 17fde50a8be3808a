// The thread that holds a test run's in-memory embedded databases (see embedded-host.ts): many
// PGlite databases in one thread, each served on a loopback port of its own, each started from a
// copy of files this thread keeps (an initialised cluster, a migrated one).
import { parentPort } from 'node:worker_threads';
import { serveEmbeddedPostgres, type EmbeddedServer } from '../db/embedded-server.js';

export type HostRequest =
  | { id: number; type: 'ping' }
  | { id: number; type: 'start'; image?: string; maxConnections: number }
  | { id: number; type: 'save'; database: number; as: string }
  | { id: number; type: 'stop'; database: number };

export type HostAnswer = { id: number; ok: true; database?: number; port?: number } | { id: number; ok: false; message: string };

const port = parentPort!;
const images = new Map<string, ArrayBuffer>();
const databases = new Map<number, EmbeddedServer>();
let next = 1;

async function handle(request: HostRequest): Promise<Omit<HostAnswer & { ok: true }, 'id' | 'ok'>> {
  switch (request.type) {
    case 'ping':
      return {};
    case 'start': {
      const image = request.image === undefined ? undefined : images.get(request.image);
      if (request.image !== undefined && !image) throw new Error(`no image named ${request.image}`);
      const server = await serveEmbeddedPostgres({ image, port: 0, maxConnections: request.maxConnections });
      const database = next++;
      databases.set(database, server);
      return { database, port: server.port };
    }
    case 'save':
      images.set(request.as, await databases.get(request.database)!.dump());
      return {};
    case 'stop': {
      const server = databases.get(request.database);
      databases.delete(request.database);
      await server?.stop();
      return {};
    }
  }
}

port.on('message', (request: HostRequest) => {
  handle(request).then(
    (answer) => port.postMessage({ id: request.id, ok: true, ...answer } satisfies HostAnswer),
    (error: Error) => port.postMessage({ id: request.id, ok: false, message: error.message } satisfies HostAnswer),
  );
});
port.postMessage({ id: 0, ok: true } satisfies HostAnswer);
