// Smoke run of `npm start` as a newcomer gets it: embedded database in a fresh data folder,
// start, probe, stop with SIGTERM; then a second start on the same data. Prints
// "N passed, N failed" and writes the counts to SMOKE_RESULTS_FILE when set.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-smoke-'));
let passed = 0;
let failed = 0;

function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? '  ok  ' : '  FAIL'} ${name}${!ok && detail ? ` (${detail})` : ''}`);
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns `npm start` on a free port and waits until it serves (true), exits or times out (false). */
async function launch() {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.IDP_ADMIN_PASSWORD;
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const run = { port, child, output: '' };
  child.stdout.on('data', (d) => (run.output += d));
  child.stderr.on('data', (d) => (run.output += d));
  run.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  run.ready = await Promise.race([
    new Promise((resolve) => {
      const timer = setInterval(() => {
        if (run.output.includes('is running at')) {
          clearInterval(timer);
          resolve(true);
        }
      }, 100);
      run.exited.then(() => {
        clearInterval(timer);
        resolve(false);
      });
    }),
    new Promise((resolve) => setTimeout(() => resolve(false), 120_000)),
  ]);
  return run;
}

async function startOnce(label) {
  const started = Date.now();
  let run = await launch();
  // The free port was taken by another process between the probe and the start: another port.
  for (let attempt = 1; !run.ready && attempt < 3 && run.output.includes('is already in use'); attempt++) {
    console.log(`  (port ${run.port} was taken meanwhile; starting on another one)`);
    run = await launch();
  }
  const { port, child, exited, ready } = run;
  check(`${label}: npm start serves within a minute`, ready && Date.now() - started < 60_000, `${Date.now() - started} ms`);
  const base = `http://127.0.0.1:${port}`;
  if (ready) {
    const health = await fetch(`${base}/health/ready`).then(async (r) => ({ status: r.status, body: await r.json() }));
    check(`${label}: /health/ready is 200 with the database ok`, health.status === 200 && health.body.checks.database === 'ok', JSON.stringify(health));
    const config = await fetch(`${base}/api/v1/config`).then((r) => r.json());
    check(`${label}: /api/v1/config names the portal client`, config.clientId === 'portal', JSON.stringify(config));
    const home = await fetch(`${base}/`);
    check(`${label}: the portal is served at /`, home.status === 200 && (await home.text()).includes('<div id="root">'));
    const admin = await fetch(`${base}/admin/`);
    check(`${label}: the admin console is served at /admin`, admin.status === 200 && (await admin.text()).includes('/admin/assets/'));
    check(`${label}: an unknown page answers 404`, (await fetch(`${base}/no/such/page`)).status === 404);
  }
  child.kill('SIGTERM');
  const { code } = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve({ code: 'timeout' }), 20_000))]);
  check(`${label}: SIGTERM stops it cleanly`, code === 0, `exit ${code}`);
  if (code === 'timeout') child.kill('SIGKILL');
  return run.output;
}

const first = await startOnce('first start');
check('first start: prints the administrator and a generated password once', /Administrator: admin@gatehouse\.local/.test(first) && /Generated administrator password/.test(first));
const generated = /Generated administrator password[^:]*:\s*(\S+)/.exec(first)?.[1] ?? '';
check('first start: the generated password pastes into a shell unquoted', /^[A-Za-z0-9%+,\-.:=@_]{20,}$/.test(generated), generated.replace(/./g, '*'));
check('first start: no runtime warning on a supported Node.js', !/Unsupported runtime/.test(first));
const second = await startOnce('second start');
check('second start: keeps the data (no new administrator password)', !/Generated administrator password/.test(second));

// A port another program holds: one sentence saying so and how to choose another, no stack trace.
const holder = net.createServer();
await new Promise((resolve) => holder.listen(0, '127.0.0.1', resolve));
const heldPort = holder.address().port;
const env = { ...process.env, PORT: String(heldPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
delete env.REDIS_URL;
const busy = spawn(process.execPath, ['scripts/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
let busyOutput = '';
busy.stdout.on('data', (d) => (busyOutput += d));
busy.stderr.on('data', (d) => (busyOutput += d));
const busyExit = await Promise.race([new Promise((resolve) => busy.once('exit', (code) => resolve(code))), new Promise((resolve) => setTimeout(() => resolve('timeout'), 60_000))]);
if (busyExit === 'timeout') busy.kill('SIGKILL');
holder.close();
check(
  'a taken port: npm start says so in a sentence and exits 1, without a stack trace',
  busyExit === 1 && busyOutput.includes(`Port ${heldPort} on 127.0.0.1 is already in use`) && !/^\s+at /m.test(busyOutput),
  `exit ${busyExit}: ${busyOutput.slice(-300)}`,
);
if (failed) console.log(`\n--- output of the last start ---\n${second}`);

console.log(`${passed} passed, ${failed} failed`);
if (process.env.SMOKE_RESULTS_FILE) writeFileSync(process.env.SMOKE_RESULTS_FILE, JSON.stringify({ passed, failed }));
process.exit(failed ? 1 : 0);
