// The embedded database's own thread: PGlite and its socket server, so that its queries run beside
// the HTTP server's event loop rather than on it. The parent sends 'stop' to close it cleanly.
import { parentPort, workerData } from 'node:worker_threads';
import { serveEmbeddedPostgres, type EmbeddedServerOptions } from './embedded-server.js';

const port = parentPort!;
try {
  const server = await serveEmbeddedPostgres(workerData as EmbeddedServerOptions);
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    server.stop().then(
      () => {
        port.postMessage({ type: 'stopped' });
        port.close();
      },
      (error: Error) => {
        port.postMessage({ type: 'error', message: error.message });
        port.close();
      },
    );
  });
  port.postMessage({ type: 'ready', port: server.port });
} catch (error) {
  port.postMessage({ type: 'error', message: (error as Error).message });
  port.close();
}
