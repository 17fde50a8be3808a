// `npm run bench` (after the provider's bench): the admin console's users lists over 100,000 users
// in 50 areas and 50 groups, on a throwaway database (PostgreSQL when DATABASE_URL is set, else the
// embedded PGlite). 16 concurrent callers, in a load process of their own (http-load.ts), search,
// filter by area, list a group's members, page deep into the list (by skip) and on to the next page
// (by the cursor a page answers) through the admin API; target p95 <= 30 ms each (50 ms at
// 1,000,000 users). Beside them: a plain pg client running the list's own statements (its SELECT …
// LIMIT 10, and the page plus count the endpoint runs) as the floor, and the Excel export of every
// user (time, memory, a client going away). The admin API serves from this process, so the
// export's memory figures are the server's.
// Loopback only; every phase is bounded in time or in work, and the process exits when done.
import { fork } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApp } from '@gatehouse/admin-api';
import { disposeTestContexts, createTestContext } from '@gatehouse/core/testing';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { listUsers, userListSql } from '../../services/admin-api/src/features/users/repository.js';
import { insertSigningKey, mintAccessToken } from '../../services/admin-api/src/testing/tokens.js';
import { bounded, latencies, printFigures, writeSection, type Figure, type Latencies } from './figures.js';
import type { LoadJob, LoadReply } from './http-load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
/** A fragment common in names and addresses ("Martin", "Marie", "Margaux", "…mar…"). */
const SEARCH = process.env.BENCH_SEARCH ?? 'mar';
/** What people type in the console's search box: names, mail domains. */
const SEARCHES = [SEARCH, 'dubois', 'anna', 'silva', 'globex', 'schmidt'];
const AREA_COUNT = 50;
const GROUP_COUNT = 50;
/** The console's list calls must answer within this at the 95th percentile, with 16 callers: 30 ms up to 100,000 users, 50 ms at a million. */
const TARGET_P95_MS = USERS >= 1_000_000 ? 50 : 30;
/** No phase may take longer than this, whatever the machine. */
const PHASE_LIMIT_MS = 5 * 60_000;

// A clean baseline for the memory figures needs a collection before the export starts.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const FIRST_NAMES = [
  'Jean', 'Marie', 'Pierre', 'Sophie', 'Luc', 'Camille', 'Thomas', 'Julie', 'Nicolas', 'Léa', 'Antoine', 'Chloé', 'Hugo', 'Manon',
  'Louis', 'Emma', 'Gabriel', 'Inès', 'Arthur', 'Sarah', 'Paul', 'Laura', 'Margaux', 'Clara', 'Lucas', 'Alice', 'Maxime', 'Anna',
  'Mathieu', 'Eva', 'Carlos', 'María', 'José', 'Ana', 'João', 'Giulia', 'Marco', 'Francesca', 'Hans', 'Anke', 'Klaus', 'Sabine',
  'John', 'Emily', 'Michael', 'Olivia', 'David', 'Grace', 'Ahmed', 'Fatima',
];
const LAST_NAMES = [
  'Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefebvre',
  'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard', 'André', 'Mercier', 'Dupont', 'Lambert',
  'Bonnet', 'François', 'Martinez', 'Legrand', 'García', 'Fernández', 'López', 'Silva', 'Santos', 'Rossi', 'Russo', 'Ferrari',
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson',
];
const DOMAINS = ['example.com', 'corp.example', 'mail.example.org', 'acme.example', 'globex.example'];
const AREAS = [
  ...['Customers', 'Employees', 'Partners', 'Suppliers', 'France', 'Iberia', 'DACH', 'Nordics'],
  ...Array.from({ length: AREA_COUNT - 8 }, (_, i) => `Region ${String(i + 9).padStart(2, '0')}`),
];

/** Runs `phase` or fails the bench when it exceeds `limitMs`. */
async function limited<T>(name: string, phase: () => Promise<T>, limitMs = PHASE_LIMIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} took longer than ${limitMs / 1000} s`)), limitMs);
  });
  try {
    return await Promise.race([phase(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * 100,000 users in one INSERT … SELECT generate_series: varied names, addresses, areas, languages
 * and states; then 50 groups, each user a member of one (a few as Owner).
 */
async function seed(query: (sql: string, values?: unknown[]) => Promise<unknown>): Promise<void> {
  await query(`INSERT INTO areas (name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [AREAS]);
  await query(
    `WITH people AS (
       SELECT i,
              ($1::text[])[1 + (i * 17) % array_length($1::text[], 1)] AS first_name,
              ($2::text[])[1 + (i * 31 + i / 50) % array_length($2::text[], 1)] AS last_name,
              ($3::text[])[1 + (i * 7) % array_length($3::text[], 1)] AS domain
         FROM generate_series(1, $4::int) AS i
     ), named AS (
       SELECT p.*,
              translate(lower(p.first_name || '.' || p.last_name), 'áàâäãçéèêëíìîïñóòôöõúùûü', 'aaaaaceeeeiiiinooooouuuu') || i AS login
         FROM people p
     ), area_ids AS (SELECT array_agg(id ORDER BY name) AS ids FROM areas WHERE name = ANY($5::text[]))
     INSERT INTO users (user_name, normalized_user_name, email, normalized_email, first_name, last_name, area_id, language,
                        locked, draft, validate_scopes, modified_on)
     SELECT login || '@' || domain, login || '@' || domain, login || '@' || domain, login || '@' || domain,
            CASE WHEN i % 53 = 0 THEN NULL ELSE first_name END, last_name,
            (SELECT ids FROM area_ids)[1 + i % $6::int],
            (ARRAY['fr', 'en', 'es', 'pt-PT', 'pt-BR', 'it', 'de'])[1 + (i * 3) % 7],
            i % 97 = 0, i % 211 = 0, i % 31 = 0,
            now() - i * interval '13 seconds' - (i::bigint * 7919 % 1000) * interval '1 millisecond'
       FROM named`,
    [FIRST_NAMES, LAST_NAMES, DOMAINS, USERS, AREAS, AREAS.length],
  );
  await query(
    `INSERT INTO groups (name, area_id)
     SELECT 'Team ' || lpad(g::text, 2, '0'), (SELECT id FROM areas WHERE name = ($1::text[])[1 + g % array_length($1::text[], 1)])
       FROM generate_series(1, $2::int) AS g`,
    [AREAS, GROUP_COUNT],
  );
  await query(
    `INSERT INTO group_members (group_id, user_id, permission)
     SELECT g.id, u.id, CASE WHEN u.n % 500 = 0 THEN 'Owner' ELSE 'Reader' END
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users) u
       JOIN (SELECT id, row_number() OVER (ORDER BY name) - 1 AS k FROM groups WHERE name LIKE 'Team %') g ON g.k = u.n % $1::int`,
    [GROUP_COUNT],
  );
  // VACUUM as well: autovacuum does it within a minute of a bulk load, and until then every index
  // entry read sends to its row to learn whether it is visible, which measures the load, not the lists.
  for (const table of ['users', 'areas', 'groups', 'group_members']) await query(`VACUUM ANALYZE ${table}`);
}

/** `workers` loops running `task` for SECONDS in this process; each completion's latency (ms) counts. */
async function loop(workers: number, task: () => Promise<void>): Promise<Latencies> {
  const samples: number[] = [];
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await task();
        samples.push(performance.now() - t0);
      }
    }),
  );
  return latencies(samples, (performance.now() - started) / 1000);
}

/** `connections` callers in a load process of their own, taking `urls` in turn for SECONDS. */
async function load(urls: string[], headers: Record<string, string>, connections: number): Promise<Latencies> {
  const child = fork(path.join(import.meta.dirname, 'http-load.ts'), [], { execArgv: ['--conditions=source', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const reply = new Promise<LoadReply>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the load process ended (exit code ${code}) without its figures`)));
  });
  child.send({ urls, headers, connections, seconds: SECONDS } satisfies LoadJob);
  const answer = await reply;
  if ('error' in answer) throw new Error(answer.error);
  return latencies(answer.latencies, answer.seconds);
}

/** One GET with a keep-alive agent; the body is read and thrown away. Fails on anything but 200. */
function get(agent: http.Agent, url: string, headers: Record<string, string>, onData?: (bytes: number) => boolean): Promise<{ bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${url} answered ${res.statusCode}`));
        return;
      }
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // The caller may stop reading (a client going away mid-download).
        if (onData && !onData(bytes)) {
          req.destroy();
          resolve({ bytes });
        }
      });
      res.on('end', () => resolve({ bytes }));
      res.on('error', reject);
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main() {
  const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (in this process)';
  console.log(
    `Users benchmark: ${USERS} users in ${AREA_COUNT} areas and ${GROUP_COUNT} groups, ${SECONDS} s per figure, ${CONNECTIONS} concurrent callers in a load process, ${availableParallelism()} CPUs, database: ${database}`,
  );
  // The embedded database accepts 30 connections: the service's pool and the pg client share them.
  const poolSize = process.env.DATABASE_URL ? CONNECTIONS : Math.min(CONNECTIONS, 12);
  const context = await createTestContext({ overrides: { 'database.poolSize': poolSize, 'log.level': 'silent' } });
  const handle = createApp(context).callback();
  const server = http.createServer((req, res) => void handle(req, res));
  // PGlite is one session: the floor's client keeps one connection there, as the service's pool does.
  const pool = new pg.Pool({ connectionString: context.database.url, max: context.pglite ? 1 : poolSize });
  // An idle connection the server ends is reported, never an unhandled error that stops the bench.
  pool.on('error', (error) => console.error(`bench pool: ${error.message}`));
  try {
    const seeded = performance.now();
    // Through the bench's own client: loading a million users in one statement outlasts the
    // product's statement bound, and on a small machine the phase's usual limit too.
    await limited('seeding', () => seed((sql, values) => pool.query(sql, values)), PHASE_LIMIT_MS * Math.max(1, USERS / 200_000));
    const seedSeconds = (performance.now() - seeded) / 1000;
    console.log(`seeded ${USERS} users, ${GROUP_COUNT} groups and their members in ${seedSeconds.toFixed(1)} s`);

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/admin`;
    const key = await insertSigningKey(context);
    // The admin API checks the caller's account at every call: the token names a seeded, active user.
    const [caller] = await context.dataSource.query('SELECT id FROM users WHERE NOT locked AND NOT draft ORDER BY id LIMIT 1');
    const bearer = await mintAccessToken(context, key, { sub: caller.id, roles: ['Administrator'], expiresIn: 3600 });
    const headers = { authorization: `Bearer ${bearer}`, 'accept-language': 'en' };

    // The console's list calls, each kind over many values so no single plan or cache decides.
    const areaIds: string[] = (await context.dataSource.query('SELECT id FROM areas WHERE name = ANY($1::text[]) ORDER BY name', [AREAS])).map((r: { id: string }) => r.id);
    const groupIds: string[] = (await context.dataSource.query(`SELECT id FROM groups WHERE name LIKE 'Team %' ORDER BY name`)).map((r: { id: string }) => r.id);
    const deepSkips = Array.from({ length: 20 }, (_, i) => Math.max(0, Math.floor(USERS / 2 + (i * (USERS / 2 - 10)) / 19)));
    const kinds: Array<{ id: string; label: string; urls: string[] }> = [
      { id: 'search', label: `users list, search (${SEARCHES.length} terms)`, urls: SEARCHES.map((term) => `${base}/users?$search=${encodeURIComponent(term)}&top=10`) },
      { id: 'filter_area', label: `users list, filter by area (${areaIds.length} areas)`, urls: areaIds.map((id) => `${base}/users?area=${id}&top=10`) },
      { id: 'filter_group', label: `users by group: a group's members (${groupIds.length} groups)`, urls: groupIds.map((id) => `${base}/groups/${id}/users?top=10`) },
      { id: 'deep_paging', label: `users list, deep page (skip ${deepSkips[0]}…${deepSkips.at(-1)})`, urls: deepSkips.map((skip) => `${base}/users?skip=${skip}&top=10`) },
    ];
    // The console's next page from each of those deep pages: by the cursor the page answered, not by skip.
    const deepNexts: string[] = [];
    for (const url of kinds.at(-1)!.urls) {
      const { next } = (await (await fetch(url, { headers })).json()) as { next?: string };
      if (next) deepNexts.push(`${base}/users?top=10&cursor=${encodeURIComponent(next)}`);
    }
    kinds.push({ id: 'next_page', label: `users list, next page by cursor (after skip ${deepSkips[0]}…)`, urls: deepNexts });
    // Each URL answers a full page before anything is measured.
    for (const kind of kinds) {
      for (const url of kind.urls) {
        const res = await fetch(url, { headers });
        const page = (await res.json()) as { count: number; items: unknown[] };
        if (res.status !== 200 || page.items.length !== Math.min(10, page.count) || page.items.length === 0) {
          throw new Error(`${url} answered ${res.status}: ${JSON.stringify(page).slice(0, 300)}`);
        }
      }
    }
    const firstPage = (await (await fetch(kinds[0]!.urls[0]!, { headers })).json()) as { count: number };

    const measured: Array<{ kind: (typeof kinds)[number]; figures: Latencies }> = [];
    for (const kind of kinds) measured.push({ kind, figures: await limited(kind.id, () => load(kind.urls, headers, CONNECTIONS)) });
    // One caller at a time: the latency a person typing sees, without queueing behind 15 others.
    const searchAlone = await limited('search alone', () => load(kinds[0]!.urls, headers, 1));
    // What this machine gives at this moment: the same callers on an admin API call that reads next to nothing.
    const apiFloor = await limited('api floor', () => load([`${base}/areas`], headers, CONNECTIONS));

    // The floor: the list's own page query (and its count) straight from a pg client, in this process.
    const sql = userListSql({ search: SEARCH, areaIds: null }, 'u.modified_on DESC');
    const direct = await limited('pg', () => loop(CONNECTIONS, async () => void (await pool.query(`${sql.text} LIMIT 10`, sql.values))));
    const directAlone = await limited('pg alone', () => loop(1, async () => void (await pool.query(`${sql.text} LIMIT 10`, sql.values))));
    // The endpoint's own two statements (page, then count) through its repository, minus HTTP.
    const plain = { query: async <T>(text: string, values?: unknown[]) => (await pool.query(text, values)).rows as T };
    const listQuery = { search: SEARCH, skip: 0, top: 10, orderBy: 'u.modified_on DESC' };
    const directWithCount = await limited('pg+count', () => loop(CONNECTIONS, async () => void (await listUsers(plain, { search: SEARCH, areaIds: null }, listQuery))));

    // Export of every user, twice: once as it runs, memory sampled every 50 ms (heap used then
    // counts garbage V8 has not yet collected), and once with a collection every 500 ms, whose
    // peak is the memory the export really holds.
    const asRun = await limited('export', () => measureExport(`${base}/users/export`, headers, false));
    const collected = await limited('export (collected)', () => measureExport(`${base}/users/export`, headers, true));
    const exportSeconds = asRun.seconds;

    // A client that goes away mid-download: the export must stop reading batches.
    // The export reads through the pg pool behind the data source: its queries are counted there.
    let batches = 0;
    const master = (context.dataSource.driver as unknown as { master: pg.Pool }).master;
    const query = master.query.bind(master) as (...args: unknown[]) => unknown;
    master.query = ((...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      if (text?.includes('export_key')) batches++;
      return query(...args);
    }) as typeof master.query;
    await get(new http.Agent(), `${base}/users/export`, headers, (bytes) => bytes < 64 * 1024);
    // Longer than the whole export took above: a pump that ignored the abort would have read every batch.
    await new Promise((resolve) => setTimeout(resolve, Math.max(1000, exportSeconds * 1500)));
    const batchesAfterAbort = batches;
    master.query = query as typeof master.query;

    const figures: Figure[] = measured.map(({ kind, figures: f }) =>
      bounded(`admin_${kind.id}.p95`, `admin ${kind.label}, ${USERS} users, ${CONNECTIONS} callers: p95`, 'ms', f.p95, { max: TARGET_P95_MS }),
    );
    console.log(`\n${`admin API call, ${CONNECTIONS} concurrent callers`.padEnd(60)} ${'req/s'.padStart(7)}  p50 / p95 / p99`);
    for (const { kind, figures: f } of measured) console.log(`${kind.label.padEnd(60)} ${f.perSecond.toFixed(0).padStart(7)}  ${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.p99)}`);
    console.log(`${'users list, search, one caller'.padEnd(60)} ${searchAlone.perSecond.toFixed(0).padStart(7)}  ${ms(searchAlone.p50)} / ${ms(searchAlone.p95)} / ${ms(searchAlone.p99)}`);
    console.log(`${'admin API floor: GET /areas'.padEnd(60)} ${apiFloor.perSecond.toFixed(0).padStart(7)}  ${ms(apiFloor.p50)} / ${ms(apiFloor.p95)} / ${ms(apiFloor.p99)}`);

    const rows: Array<[string, string]> = [
      [`pg client, the list's SELECT … LIMIT 10 for "${SEARCH}" (${firstPage.count} matches): queries/s`, direct.perSecond.toFixed(0)],
      ['  p50 / p95 / p99', `${ms(direct.p50)} / ${ms(direct.p95)} / ${ms(direct.p99)}`],
      ['  one connection: p50 / p95 / p99', `${ms(directAlone.p50)} / ${ms(directAlone.p95)} / ${ms(directAlone.p99)}`],
      ["pg client, the list's page + count (listUsers): pairs/s", directWithCount.perSecond.toFixed(0)],
      ['  p50 / p95 / p99', `${ms(directWithCount.p50)} / ${ms(directWithCount.p95)} / ${ms(directWithCount.p99)}`],
      [`GET /users/export, all ${USERS} users: time`, `${exportSeconds.toFixed(2)} s (${(USERS / exportSeconds).toFixed(0)} rows/s)`],
      ['  file size / data rows read back', `${mb(asRun.bytes)} / ${asRun.rows}`],
      ['  peak RSS over baseline (baseline)', `${mb(asRun.peakRss - asRun.baseline.rss)} (${mb(asRun.baseline.rss)})`],
      ['  peak heap used over baseline, garbage included', `${mb(asRun.peakHeap - asRun.baseline.heapUsed)} (${mb(asRun.baseline.heapUsed)})`],
      ['  collected every 500 ms: peak live heap / RSS over baseline', `${mb(collected.peakHeap - collected.baseline.heapUsed)} / ${mb(collected.peakRss - collected.baseline.rss)}`],
      ['export abandoned after 64 KB: batches read', `${batchesAfterAbort} of ${Math.ceil(USERS / 2000)}`],
    ];
    console.log('');
    for (const [label, value] of rows) console.log(`${label.padEnd(78)} ${value}`);
    console.log('');
    printFigures(figures);
    for (const run of [asRun, collected]) if (run.rows !== USERS) throw new Error(`the export held ${run.rows} rows, not ${USERS}`);

    const round = (f: Latencies) => ({ perSecond: f.perSecond, p50: f.p50, p95: f.p95, p99: f.p99, count: f.count });
    writeSection('users', {
      title: 'Admin users lists and export',
      settings: { users: USERS, areas: AREA_COUNT, groups: GROUP_COUNT, seconds: SECONDS, connections: CONNECTIONS, database, placement: 'admin API in the bench process; callers in a load process' },
      figures: [
        ...figures,
        bounded('export.seconds', `export of all ${USERS} users: time`, 's', exportSeconds),
        bounded('export.live_heap_mb', 'export: peak live heap over baseline', 'MB', (collected.peakHeap - collected.baseline.heapUsed) / 1024 / 1024),
      ],
      details: {
        seedSeconds,
        admin: Object.fromEntries(measured.map(({ kind, figures: f }) => [kind.id, { label: kind.label, ...round(f) }])),
        searchOneCaller: round(searchAlone),
        apiFloor: round(apiFloor),
        floor: { select: round(direct), selectOneConnection: round(directAlone), pageAndCount: round(directWithCount) },
        export: { seconds: exportSeconds, bytes: asRun.bytes, rows: asRun.rows, peakRssOverBaseline: asRun.peakRss - asRun.baseline.rss, batchesAfterAbort, batches: Math.ceil(USERS / 2000) },
      },
    });
  } finally {
    server.close();
    await pool.end();
    await disposeTestContexts();
  }
}

interface ExportFigures {
  seconds: number;
  bytes: number;
  rows: number;
  baseline: NodeJS.MemoryUsage;
  peakRss: number;
  peakHeap: number;
}

/**
 * Downloads the export to a file (not to memory, so the figures are the server's) while sampling
 * this process's memory every 50 ms, then counts the file's rows once the measurement is over.
 * With `collect`, a full collection runs every 500 ms, just before that sample.
 */
async function measureExport(url: string, headers: Record<string, string>, collect: boolean): Promise<ExportFigures> {
  gc();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  let samples = 0;
  const sampler = setInterval(() => {
    if (collect && samples % 10 === 0) gc();
    samples++;
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    // Between collections heap used counts garbage too: only samples right after one count then.
    if (!collect || samples % 10 === 1) peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 50);
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-bench-'));
  const file = path.join(dir, 'Users.xlsx');
  const started = performance.now();
  try {
    const res = await fetch(url, { headers });
    if (res.status !== 200 || !res.body) throw new Error(`the export answered ${res.status}`);
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(file));
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  try {
    return { seconds, bytes: statSync(file).size, rows: await countRows(file), baseline, peakRss, peakHeap };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The data rows of an exported workbook, read with the streaming reader. */
async function countRows(file: string): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore' });
  let rows = 0;
  for await (const sheet of reader) for await (const _row of sheet) rows++;
  return rows - 1;
}

await main();
process.exit(0);
