// Several nodes of the product on one machine: each a process of its own on its own port, sharing
// one PostgreSQL database, one Redis and the same keys, behind a loopback proxy that alternates
// between them as a load balancer without sticky sessions would.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../support/ports.js';

export { freePort };

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ProductNode {
  name: string;
  port: number;
  /** The node's own address, bypassing the proxy. */
  url: string;
  /** What the process printed (its warnings and errors), for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the launcher from source in a child process (every service, as `npm start` runs it) and
 * waits until it serves. `env` completes the process's environment.
 */
export async function startNode(name: string, env: Record<string, string>): Promise<ProductNode> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'services/launcher/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  while (!output.includes('is running at')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`node ${name} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The one address users reach: each request goes to the next node in turn, whatever came before
 * (no affinity), and its answer says which node served it (`x-served-by`).
 */
export class AlternatingProxy {
  private server!: http.Server;
  private turn = 0;
  port = 0;

  constructor(private readonly nodes: Array<{ name: string; port: number }>) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The node the next request goes to. */
  get next(): string {
    return this.nodes[this.turn % this.nodes.length]!.name;
  }

  /** Lets the next request go to the node after the one it would have gone to. */
  skip(): void {
    this.turn++;
  }

  async start(port: number): Promise<this> {
    this.server = http.createServer((req, res) => {
      const node = this.nodes[this.turn++ % this.nodes.length]!;
      const upstream = http.request(
        { host: '127.0.0.1', port: node.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': node.name });
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain', 'x-served-by': node.name });
        res.end(`node ${node.name}: ${error.message}`);
      });
      req.pipe(upstream);
    });
    // No keep-alive towards the nodes' clients either: every request is a new choice.
    this.server.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
