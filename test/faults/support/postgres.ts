// A PostgreSQL cluster of the test's own (initdb in a temporary folder, a free loopback port) that
// a fault scenario may restart; never the machine's shared server.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/server.js';

const execute = promisify(execFile);

/** The folder of PostgreSQL's server programs: POSTGRES_BIN, else the newest under /usr/lib/postgresql. */
function binaries(): string | undefined {
  if (process.env.POSTGRES_BIN) return existsSync(path.join(process.env.POSTGRES_BIN, 'pg_ctl')) ? process.env.POSTGRES_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((bin) => existsSync(path.join(bin, 'pg_ctl')));
}

/** initdb refuses root: as root, the cluster belongs to the `postgres` account. */
const AS_ROOT = userInfo().uid === 0;

function postgresAccount(): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Why a scenario needing a PostgreSQL server of its own cannot run here, or undefined when it can. */
export function postgresMissing(): string | undefined {
  if (!binaries()) return 'the PostgreSQL server programs (initdb, pg_ctl) are not installed (apt-get install postgresql, or set POSTGRES_BIN)';
  if (AS_ROOT && !postgresAccount()) return 'running as root without a postgres account to own a cluster';
  return undefined;
}

export class OwnPostgres {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** postgres:// URL of the cluster's `postgres` database (trust authentication on loopback). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** A new cluster, started. */
  static async start(): Promise<OwnPostgres> {
    const bin = binaries()!;
    const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-fault-pg-'));
    if (AS_ROOT) {
      const { uid, gid } = postgresAccount()!;
      chownSync(dir, uid, gid);
    }
    const cluster = new OwnPostgres(bin, dir, await freePort());
    await cluster.ctl('initdb', ['-D', cluster.data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    await cluster.pgCtl(['start', '-w', '-t', '60', '-o', cluster.serverOptions, '-l', path.join(dir, 'server.log')]);
    return cluster;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  /** Loopback only, its socket in its own folder; fsync off: a server process's crash loses nothing the system has. */
  private get serverOptions(): string {
    return `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off -c max_connections=60`;
  }

  /**
   * Stops the server as a crash would (immediate: no checkpoint, every connection cut, crash
   * recovery at the next start), keeps it down `downMs`, and starts it again: resolves once it
   * accepts connections, with the moment it did.
   */
  async restart(downMs: number): Promise<{ upAt: number }> {
    await this.pgCtl(['stop', '-m', 'immediate', '-w']);
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.pgCtl(['start', '-w', '-t', '60', '-o', this.serverOptions, '-l', path.join(this.dir, 'server.log')]);
    return { upAt: Date.now() };
  }

  async stop(): Promise<void> {
    await this.pgCtl(['stop', '-m', 'immediate', '-w']).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private pgCtl(args: string[]): Promise<unknown> {
    return this.ctl('pg_ctl', ['-D', this.data, ...args]);
  }

  /** Runs one of the server programs, as the postgres account when this process is root. */
  private async ctl(program: string, args: string[]): Promise<void> {
    const file = path.join(this.bin, program);
    const [command, argv] = AS_ROOT ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    await execute(command, argv, { cwd: this.dir, timeout: 120_000 });
  }
}
