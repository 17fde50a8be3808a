// `npm run bench`, the provider's part: throughput of the product next to a bare oidc-provider
// (same published key set), in one run. Every contender is a process of its own (oidc-server.ts)
// and this process only generates the load (autocannon, and the sign-in clients), so no server
// shares its process with its load:
//   - the product on PostgreSQL (a fresh database on the server of DATABASE_URL), without Redis;
//   - the product on its embedded database (a fresh data folder), as a deployment without DATABASE_URL;
//   - bare oidc-provider with its in-memory adapter: the limit;
//   - bare oidc-provider with a plain PostgreSQL adapter (pg-adapter.ts) on a database of its own on
//     the same server: what someone who picks oidc-provider and keeps its data would run.
// Without DATABASE_URL the PostgreSQL contenders are not measured and say so. Contenders of one
// figure run in alternating rounds after a warm-up each, so a busy moment of a shared machine
// weighs on all of them. Loopback only; every phase is bounded, and the process exits when done.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import pg from 'pg';
import { bounded, compared, printFigures, writeSection, type Figure } from './figures.js';
import { ACCOUNTS, PASSWORD, SECRET, accountName, type Question, type Reply, type Request } from './oidc-setup.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = 3;
const ROUND_SECONDS = SECONDS / ROUNDS;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SERVER_URL = process.env.DATABASE_URL;
/** The least ratio to the bare provider on PostgreSQL: client credentials must beat it clearly. */
const DURABLE_RATIO = { client_credentials: 1.2, refresh: 1.0, introspection: 1.0 } as const;
/** Sign-ins of the memory figure, after those of the other figures. */
const MEMORY_SIGN_INS = Number(process.env.BENCH_MEMORY_SIGN_INS ?? 2000);
/** The parts to measure (documents, tokens, sign-in, memory): all by default; a subset when profiling one. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'documents,tokens,sign-in,memory').split(',').map((p) => p.trim()));
const MB = 1024 * 1024;
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const NO_DATABASE = 'not measured (no DATABASE_URL)';
/** A contender that has not started within this is a failure. */
const START_LIMIT_MS = 5 * 60_000;
const basic = `Basic ${Buffer.from(`bench:${SECRET}`).toString('base64')}`;
const XSRF = randomBytes(32).toString('base64url');
const tokenHeaders = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

// ---------------------------------------------------------------------------------------------
// Contenders: processes of their own.

interface Contender {
  name: string;
  kind: 'product' | 'bare';
  url: string;
  issuerPath: string;
  pid: number;
  ask<T>(request: Question): Promise<T>;
  stop(): Promise<void>;
}

async function startContender(name: string, kind: 'product' | 'bare', env: Record<string, string | undefined>): Promise<Contender> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'oidc-server.ts'), [kind], {
    // The product runs its compiled build, as `npm start` runs it (built at the start of the bench):
    // its CPU and memory are then those of a deployment, without the source loader's work and caches.
    // BENCH_PROFILE_DIR: each product process writes a CPU profile there when it stops (for a miss's "where the time goes").
    execArgv: [
      ...(kind === 'product' ? [] : ['--conditions=source']),
      '--import',
      'tsx',
      ...(PROFILE_DIR && kind === 'product' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
    ],
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  const ready = new Promise<{ url: string; issuerPath: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${START_LIMIT_MS / 1000} s:\n${output}`)), START_LIMIT_MS);
    child.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        clearTimeout(timer);
        resolve(reply.ready);
        return;
      }
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(new Error(`${name}: ${reply.error}`));
      else waiting?.resolve(reply.result);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const error = new Error(`${name} ended (exit code ${code}):\n${output}`);
      reject(error);
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    });
  });
  const ask = <T>(request: Question): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!child.connected) return reject(new Error(`${name} is not running:\n${output}`));
      const id = next++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...request, id } as Request);
    });
  const { url, issuerPath } = await ready.catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    name,
    kind,
    url,
    issuerPath,
    pid: child.pid!,
    ask,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await ask({ op: 'stop' }).catch(() => child.kill('SIGKILL'));
      await exited;
      clearTimeout(killer);
    },
  };
}

/** A fresh database on the server of DATABASE_URL, dropped by `drop`. */
async function createDatabase(prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: SERVER_URL });
    client.on('error', (error) => console.error(`maintenance connection: ${error.message}`));
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER_URL!);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * The private keys of the bare providers: one of each algorithm and size the product publishes
 * (its JWKS), so both sign and publish the same kinds of keys.
 */
async function keysLike(published: JWK[]): Promise<JWK[]> {
  return Promise.all(
    published.map(async (key, i) => {
      const alg = key.alg ?? (key.kty === 'RSA' ? 'RS256' : key.kty === 'OKP' ? 'EdDSA' : 'ES256');
      const modulusLength = key.kty === 'RSA' ? Buffer.from(key.n!, 'base64url').length * 8 : undefined;
      const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(modulusLength ? { modulusLength } : {}), ...(key.crv && key.kty === 'OKP' ? { crv: key.crv } : {}) });
      return { ...(await exportJWK(privateKey)), alg, use: 'sig', kid: `bench-${i}-${alg}` };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Load.

/** Requests per second of one autocannon run; any answer but 2xx fails the bench. */
async function run(url: string, options: Partial<autocannon.Options>, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors during the run`);
  }
  return result.requests.average;
}

type Round = (warmUp: boolean) => Promise<number>;

/**
 * One warm-up round of each contender, then ROUNDS rounds where they take turns, so all see the
 * same slow and fast moments of the machine; each figure is the mean of its rounds.
 */
async function alternate(rounds: Round[]): Promise<number[]> {
  for (const round of rounds) await round(true);
  const sums = rounds.map(() => 0);
  for (let r = 0; r < ROUNDS; r++) for (const [i, round] of rounds.entries()) sums[i]! += await round(false);
  return sums.map((sum) => sum / ROUNDS);
}

/** The bench accounts, each lent to one sign-in at a time. */
class Accounts {
  private readonly free = Array.from({ length: ACCOUNTS }, (_, i) => i);
  private readonly waiting: Array<(i: number) => void> = [];

  async with<T>(task: (userName: string) => Promise<T>): Promise<T> {
    const i = this.free.pop() ?? (await new Promise<number>((resolve) => this.waiting.push(resolve)));
    try {
      return await task(accountName(i));
    } finally {
      const next = this.waiting.shift();
      if (next) next(i);
      else this.free.push(i);
    }
  }
}

function cookieJar() {
  const jar = new Map<string, string>([['XSRF-TOKEN', XSRF]]);
  return {
    header: () => [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    keep(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
    },
  };
}
type Jar = ReturnType<typeof cookieJar>;

/** The product's sign-in page's call, as the browser makes it: the URL to resume the authorization at. */
async function productLogin(contender: Contender, loginPage: URL, jar: Jar, userName: string): Promise<string> {
  const res = await fetch(`${contender.url}/api/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: jar.header(), 'x-xsrf-token': XSRF },
    body: JSON.stringify({ userName, password: PASSWORD, interaction: loginPage.searchParams.get('interaction') }),
  });
  const body = (await res.json()) as { redirectTo: string };
  if (res.status !== 200) throw new Error(`${contender.name}: sign-in answered ${res.status}: ${JSON.stringify(body)}`);
  return body.redirectTo;
}

/** oidc-provider's development sign-in form. */
async function bareLogin(contender: Contender, loginPage: URL, jar: Jar, userName: string): Promise<string> {
  const res = await fetch(new URL(loginPage.pathname, contender.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({ prompt: 'login', login: userName }),
  });
  jar.keep(res);
  return new URL(res.headers.get('location')!, contender.url).toString();
}

/** Complete sign-ins so far, per contender (the memory figure names how many its node served). */
const signInsOn = new Map<Contender, number>();

/** One complete sign-in: authorize → sign-in → code → tokens. */
async function signIn(contender: Contender, userName: string): Promise<{ refresh_token: string; access_token: string }> {
  signInsOn.set(contender, (signInsOn.get(contender) ?? 0) + 1);
  const base = contender.url;
  const jar = cookieJar();
  const authorize = new URL(`${base}${contender.issuerPath}/auth`);
  authorize.search = new URLSearchParams({ client_id: 'bench', response_type: 'code', scope: 'openid', redirect_uri: `${base}/cb` }).toString();
  const start = await fetch(authorize, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.keep(start);
  const login = contender.kind === 'product' ? productLogin : bareLogin;
  const resumeUrl = await login(contender, new URL(start.headers.get('location')!, base), jar, userName);
  const resumed = await fetch(resumeUrl, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.keep(resumed);
  let location = resumed.headers.get('location')!;
  if (!location.startsWith(`${base}/cb`)) {
    // The bare provider passes through its consent step once more.
    const again = await fetch(new URL(location, base), { redirect: 'manual', headers: { cookie: jar.header() } });
    location = again.headers.get('location')!;
  }
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`${contender.name}: the sign-in ended at ${location}, without a code`);
  const token = await fetch(`${base}${contender.issuerPath}/token`, {
    method: 'POST',
    headers: tokenHeaders,
    body: form({ grant_type: 'authorization_code', code, redirect_uri: `${base}/cb` }),
  });
  if (token.status !== 200) throw new Error(`${contender.name}: token endpoint answered ${token.status}: ${await token.text()}`);
  return (await token.json()) as { refresh_token: string; access_token: string };
}

/** Completed operations per second of `task`, run by `workers` loops for `seconds`. */
async function loop(workers: number, task: () => Promise<unknown>, seconds: number): Promise<{ perSecond: number; done: number }> {
  const started = Date.now();
  const until = started + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) {
        await task();
        done++;
      }
    }),
  );
  return { perSecond: done / ((Date.now() - started) / 1000), done };
}

/** The provider figures of one contender, each as one round. */
function workloads(contender: Contender, accounts: Accounts) {
  const issuer = `${contender.url}${contender.issuerPath}`;
  const token = `${issuer}/token`;
  // Rotating refresh tokens circulate: each request takes one, its answer puts the next back.
  const pool: string[] = [];
  const clientCredentials = async () => {
    const res = await fetch(token, { method: 'POST', headers: tokenHeaders, body: form({ grant_type: 'client_credentials' }) });
    if (res.status !== 200) throw new Error(`${contender.name}: client_credentials answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const introspect = async (accessToken: string) => {
    const res = await fetch(`${issuer}/token/introspection`, { method: 'POST', headers: tokenHeaders, body: form({ token: accessToken }) });
    return ((await res.json()) as { active?: boolean }).active === true;
  };
  return {
    jwks: () => run(`${issuer}/jwks`, {}, ROUND_SECONDS),
    discovery: () => run(`${issuer}/.well-known/openid-configuration`, {}, ROUND_SECONDS),
    clientCredentials: () => run(token, { method: 'POST', headers: tokenHeaders, body: form({ grant_type: 'client_credentials' }) }, ROUND_SECONDS),
    introspection: async () => {
      // A token of this round (an in-memory store forgets the oldest), active before and after it:
      // introspecting a token the provider no longer knows would measure a cheaper answer.
      const accessToken = await clientCredentials();
      if (!(await introspect(accessToken))) throw new Error(`${contender.name}: a fresh access token is not active`);
      const rate = await run(`${issuer}/token/introspection`, { method: 'POST', headers: tokenHeaders, body: form({ token: accessToken }) }, ROUND_SECONDS);
      if (!(await introspect(accessToken))) throw new Error(`${contender.name}: the introspected token went inactive during the round`);
      return rate;
    },
    refresh: async () => {
      // A round ends with requests in flight whose answers (the next tokens) are dropped: top up.
      const missing = CONNECTIONS * 2 - pool.length;
      if (missing > 0) pool.push(...(await Promise.all(Array.from({ length: missing }, () => accounts.with(async (user) => (await signIn(contender, user)).refresh_token)))));
      return run(
        token,
        {
          requests: [
            {
              method: 'POST',
              headers: tokenHeaders,
              setupRequest: (req) => ({ ...req, body: form({ grant_type: 'refresh_token', refresh_token: pool.shift() ?? 'exhausted' }) }),
              onResponse: (status, body) => {
                if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
              },
            },
          ],
        },
        ROUND_SECONDS,
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// CPU time of the PostgreSQL backends serving one database, read from /proc.

const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return 10;
  }
})();

/** utime + stime of a process in ms, or undefined when it is gone (or not on this machine). */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * Samples the backends of `database` every 250 ms: a backend present at the start counts from its
 * first sample, one that appears later from zero (it was born during the measurement).
 */
class BackendCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<void> = Promise.resolve();
  private started = false;
  /** A backend's CPU could not be read (the server runs on another machine?): the figure leaves PostgreSQL out. */
  incomplete = false;

  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async open(database: string): Promise<BackendCpu> {
    const client = new pg.Client({ connectionString: SERVER_URL });
    // A connection the server ends is reported; the samples after it fail and mark the figure incomplete.
    client.on('error', (error) => console.error(`backend sampler: ${error.message}`));
    await client.connect();
    return new BackendCpu(client, database);
  }

  private async sample(): Promise<void> {
    const { rows } = await this.client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, [this.database]);
    for (const { pid } of rows) {
      const ms = processCpuMs(pid);
      if (ms === undefined) {
        this.incomplete = true;
        continue;
      }
      if (!this.first.has(pid)) this.first.set(pid, this.started ? 0 : ms);
      this.last.set(pid, ms);
    }
  }

  /** Runs `task` while sampling; answers its result and the backends' CPU ms spent meanwhile. */
  async during<T>(task: () => Promise<T>): Promise<{ result: T; ms: number }> {
    this.first.clear();
    this.last.clear();
    this.started = false;
    await this.sample();
    this.started = true;
    this.timer = setInterval(() => {
      this.sampling = this.sampling.then(() => this.sample()).catch(() => void (this.incomplete = true));
    }, 250);
    try {
      const result = await task();
      return { result, ms: await this.settle() };
    } finally {
      clearInterval(this.timer);
    }
  }

  private async settle(): Promise<number> {
    clearInterval(this.timer);
    await this.sampling;
    await this.sample();
    let total = 0;
    for (const [pid, last] of this.last) total += last - (this.first.get(pid) ?? 0);
    return total;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

// ---------------------------------------------------------------------------------------------

/** The services' compiled build, brought up to date as `npm start` does (a no-op when it is). */
function buildServices(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}

async function main(): Promise<void> {
  buildServices();
  console.log(
    `Provider benchmark: ${SECONDS} s per figure and contender (${ROUNDS} alternating rounds after a warm-up), ${CONNECTIONS} connections, ${availableParallelism()} CPUs; ` +
      `each server in a process of its own, the load from this one; PostgreSQL: ${SERVER_URL ? 'the server of DATABASE_URL' : 'none (DATABASE_URL unset)'}`,
  );
  const contenders: Contender[] = [];
  const databases: Array<{ drop(): Promise<void> }> = [];
  let backends: BackendCpu | undefined;
  const figures: Figure[] = [];
  try {
    const productDb = SERVER_URL ? await createDatabase('gatehouse_bench_product') : undefined;
    if (productDb) databases.push(productDb);
    const storeDb = SERVER_URL ? await createDatabase('gatehouse_bench_oidc_store') : undefined;
    if (storeDb) databases.push(storeDb);

    const [onPostgres, embedded] = await Promise.all([
      productDb ? startContender('Gatehouse on PostgreSQL', 'product', { BENCH_DATABASE_URL: productDb.url }) : undefined,
      startContender('Gatehouse on its embedded database', 'product', { BENCH_DATABASE_URL: undefined }),
    ]);
    contenders.push(...[onPostgres, embedded].filter((c) => c !== undefined));
    const primary = onPostgres ?? embedded!;
    const published = ((await (await fetch(`${primary.url}${primary.issuerPath}/jwks`)).json()) as { keys: JWK[] }).keys;
    const keys = JSON.stringify(await keysLike(published));
    const [memory, durable] = await Promise.all([
      startContender('bare oidc-provider, in memory', 'bare', { BENCH_KEYS: keys }),
      storeDb ? startContender('bare oidc-provider, PostgreSQL adapter', 'bare', { BENCH_KEYS: keys, BENCH_STORE_URL: storeDb.url, BENCH_STORE_POOL: '10' }) : undefined,
    ]);
    contenders.push(...[memory, durable].filter((c) => c !== undefined));
    console.log(`contenders: ${contenders.map((c) => `${c.name} (pid ${c.pid})`).join(', ')}; published keys: ${published.map((k) => k.alg ?? k.kty).join(', ')}`);

    const accounts = new Accounts();
    const load = new Map(contenders.map((c) => [c, workloads(c, accounts)]));
    const of = (c: Contender) => load.get(c)!;
    const present = (...list: Array<Contender | undefined>) => list.filter((c): c is Contender => c !== undefined);
    /** The figure of each contender given (undefined for those absent), measured side by side. */
    const measure = async (what: keyof ReturnType<typeof workloads>, list: Array<Contender | undefined>): Promise<Map<Contender, number>> => {
      const running = present(...list);
      console.log(`  ${what}: ${running.map((c) => c.name).join(' / ')}`);
      const rates = await alternate(running.map((c) => () => of(c)[what]()));
      return new Map(running.map((c, i) => [c, rates[i]!]));
    };
    const value = (rates: Map<Contender, number>, c: Contender | undefined) => (c ? (rates.get(c) ?? null) : null);

    const primaryName = primary === onPostgres ? 'on PostgreSQL' : 'on its embedded database';
    // Resident memory of one node on PostgreSQL before any load (the embedded one holds its database too).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = { postgres: onPostgres ? await onPostgres.ask<number>({ op: 'memory' }) : null, embedded: await embedded.ask<number>({ op: 'memory' }) };

    // Published documents: no database involved.
    if (PARTS.has('documents')) {
      const jwks = await measure('jwks', [primary, memory]);
      const discovery = await measure('discovery', [primary, memory]);
      figures.push(
        compared('jwks', `JWKS/s (Gatehouse ${primaryName})`, 'req/s', value(jwks, primary), { label: memory.name + ', same keys', value: value(jwks, memory) }, { ratio: 1.0 }),
        compared('discovery', `discovery/s (Gatehouse ${primaryName})`, 'req/s', value(discovery, primary), { label: memory.name + ', same keys', value: value(discovery, memory) }, { ratio: 1.0 }),
      );
    }

    // Token work: every contender that keeps tokens.
    if (PARTS.has('tokens')) {
    const clientCredentials = await measure('clientCredentials', [onPostgres, durable, memory, embedded]);
    const refresh = await measure('refresh', [onPostgres, durable, memory, onPostgres ? undefined : embedded]);
    const introspection = await measure('introspection', [onPostgres, durable, memory, onPostgres ? undefined : embedded]);
    for (const [id, label, rates] of [
      ['client_credentials', 'client-credentials tokens/s', clientCredentials],
      ['refresh', 'refresh-token grants/s', refresh],
      ['introspection', 'introspections/s', introspection],
    ] as const) {
      const note = onPostgres ? undefined : NO_DATABASE;
      figures.push(
        compared(`${id}.postgres_vs_durable`, `${label} on PostgreSQL`, 'req/s', value(rates, onPostgres), { label: 'bare oidc-provider, PostgreSQL adapter, same server', value: value(rates, durable) }, { ratio: DURABLE_RATIO[id] }, note),
        compared(`${id}.postgres_vs_memory`, `${label} on PostgreSQL`, 'req/s', value(rates, onPostgres), { label: 'bare oidc-provider, in memory (the limit)', value: value(rates, memory) }, { ratio: 0.8, aim: true }, note),
      );
      if (!onPostgres) {
        figures.push(compared(`${id}.embedded_vs_memory`, `${label} on the embedded database`, 'req/s', value(rates, embedded), { label: 'bare oidc-provider, in memory (the limit)', value: value(rates, memory) }));
      }
    }
    figures.push(
      compared(
        'client_credentials.embedded_vs_postgres',
        'client-credentials tokens/s on the embedded database',
        'req/s',
        onPostgres ? value(clientCredentials, embedded) : null,
        { label: 'Gatehouse on PostgreSQL, same run', value: value(clientCredentials, onPostgres) },
        { ratio: 0.8 },
        onPostgres ? undefined : NO_DATABASE,
      ),
    );
    }

    // Complete password sign-ins, their CPU (the product's process, and PostgreSQL's backends of its
    // database), and the ceiling of raw argon2 verifications in the same process.
    const details: Record<string, unknown> = {};
    if (PARTS.has('sign-in')) {
      console.log(`  password sign-ins: ${primary.name} / argon2 verifications in its process`);
      backends = onPostgres ? await BackendCpu.open(productDb!.name) : undefined;
      const signIns = { done: 0, nodeMs: 0, postgresMs: 0 };
      const [signInRate, argon2Rate] = await alternate([
        async (warmUp) => {
          const before = await primary.ask<number>({ op: 'cpu' });
          const task = () => loop(CONNECTIONS, () => accounts.with((user) => signIn(primary, user)), ROUND_SECONDS);
          const { result, ms } = backends ? await backends.during(task) : { result: await task(), ms: 0 };
          const after = await primary.ask<number>({ op: 'cpu' });
          if (!warmUp) {
            signIns.done += result.done;
            signIns.nodeMs += after - before;
            signIns.postgresMs += ms;
          }
          return result.perSecond;
        },
        () => primary.ask<number>({ op: 'argon2Rate', seconds: ROUND_SECONDS, workers: availableParallelism() }),
      ]);
      const argon2Ms = await primary.ask<number>({ op: 'argon2Cpu', count: Math.max(5, Math.round(SECONDS * 3)) });
      const perSignIn = signIns.done ? (signIns.nodeMs + signIns.postgresMs) / signIns.done - argon2Ms : null;
      const cpuNote = backends?.incomplete
        ? "PostgreSQL's backends not all readable in /proc (server on another machine?): partly Node only"
        : onPostgres
          ? undefined
          : 'on the embedded database: the product process, its database thread included';
      figures.push(
        bounded('sign_in.cpu_ms', `CPU per complete password sign-in outside argon2 (Gatehouse ${primaryName}, ${onPostgres ? 'Node + PostgreSQL' : 'its whole process'})`, 'ms', perSignIn, { max: 10 }, cpuNote),
        compared('sign_in.rate', `password sign-ins/s (Gatehouse ${primaryName})`, '/s', signInRate!, { label: 'raw argon2 verifications/s, same parameters', value: argon2Rate! }, { ratio: 0.8 }),
      );
      details.signIns = {
        measured: signIns.done,
        nodeMsPerSignIn: signIns.done ? signIns.nodeMs / signIns.done : null,
        postgresMsPerSignIn: signIns.done && onPostgres ? signIns.postgresMs / signIns.done : null,
        argon2MsPerVerification: argon2Ms,
      };
      console.log(
        `\nsign-in CPU: ${signIns.done} sign-ins; per sign-in ${(signIns.nodeMs / Math.max(1, signIns.done)).toFixed(2)} ms in the product's process` +
          `${onPostgres ? ` + ${(signIns.postgresMs / Math.max(1, signIns.done)).toFixed(2)} ms in PostgreSQL` : ''} - ${argon2Ms.toFixed(2)} ms for its argon2 verification`,
      );
    }

    // Resident memory of one node on PostgreSQL: idle (above), then after MEMORY_SIGN_INS more
    // complete sign-ins, with a reading halfway to show whether it still grows.
    if (PARTS.has('memory')) {
      const node = onPostgres;
      let halfway: number | null = null;
      let after: number | null = null;
      if (node) {
        console.log(`  memory: ${MEMORY_SIGN_INS} sign-ins on ${node.name}`);
        const run = async (count: number) => {
          let left = count;
          await Promise.all(
            Array.from({ length: CONNECTIONS }, async () => {
              while (left-- > 0) await accounts.with((user) => signIn(node, user));
            }),
          );
        };
        await run(Math.ceil(MEMORY_SIGN_INS / 2));
        halfway = await node.ask<number>({ op: 'memory' });
        await run(Math.floor(MEMORY_SIGN_INS / 2));
        after = await node.ask<number>({ op: 'memory' });
      }
      const total = signInsOn.get(node!) ?? 0;
      figures.push(
        bounded('memory.idle_mb', 'resident memory of one node on PostgreSQL, idle after start', 'MB', idle.postgres === null ? null : idle.postgres / MB, { max: 250 }, node ? undefined : NO_DATABASE),
        bounded('memory.after_sign_ins_mb', `resident memory of that node after ${total} sign-ins (and the figures above)`, 'MB', after === null ? null : after / MB, { max: 400 }, node ? undefined : NO_DATABASE),
      );
      details.memory = {
        idlePostgresMb: idle.postgres === null ? null : idle.postgres / MB,
        idleEmbeddedMb: idle.embedded / MB,
        halfwayMb: halfway === null ? null : halfway / MB,
        afterMb: after === null ? null : after / MB,
        signInsOnThatNode: total,
        growthMbPer1000SignIns: halfway !== null && after !== null ? ((after - halfway) / MB / Math.floor(MEMORY_SIGN_INS / 2)) * 1000 : null,
      };
      console.log(`\nmemory: ${JSON.stringify(details.memory)}`);
    }

    console.log('');
    printFigures(figures);
    writeSection('oidc', {
      title: 'Provider throughput and sign-in cost',
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, cpus: availableParallelism(), postgres: Boolean(SERVER_URL), placement: 'each server in a process of its own; load from the bench process' },
      figures,
      details,
    });
  } finally {
    await backends?.close().catch(() => undefined);
    await Promise.allSettled(contenders.map((c) => c.stop()));
    await Promise.allSettled(databases.map((db) => db.drop()));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
