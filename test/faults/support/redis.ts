// A Redis of the test's own, on a free loopback port, that a fault scenario may kill, flush and
// start again; never the machine's shared one.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from '../../support/server.js';

/** Why a scenario needing redis-server cannot run here, or undefined when it can. */
export function redisMissing(): string | undefined {
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return found.error || found.status !== 0 ? 'redis-server is not on PATH (apt-get install redis-server)' : undefined;
}

export class OwnRedis {
  private process?: ChildProcess;
  private exited?: Promise<void>;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  /** Starts redis-server on this port (again), empty, and waits until it answers. */
  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.process = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 10_000;
    while ((await this.command('PING').catch(() => '')) !== '+PONG') {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on port ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Kills the server as a crash would (SIGKILL) and waits until its port is closed. */
  async kill(): Promise<void> {
    if (!this.process || this.process.exitCode !== null) return;
    this.process.kill('SIGKILL');
    await this.exited;
  }

  /** Empties every database of the server, as an operator's FLUSHALL would. */
  async flush(): Promise<void> {
    const answer = await this.command('FLUSHALL');
    if (answer !== '+OK') throw new Error(`FLUSHALL answered ${answer}`);
  }

  /** How many keys the server holds. */
  async size(): Promise<number> {
    return Number((await this.command('DBSIZE')).slice(1));
  }

  stop(): Promise<void> {
    return this.kill();
  }

  /** One inline command over a fresh connection: its first reply line. */
  private command(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.port, '127.0.0.1');
      let reply = '';
      socket.setTimeout(2000, () => socket.destroy(new Error('no answer')));
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        reply += chunk.toString();
        if (reply.includes('\r\n')) {
          socket.end();
          resolve(reply.split('\r\n')[0]!);
        }
      });
      socket.write(`${text}\r\n`);
    });
  }
}
