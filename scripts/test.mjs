// `npm test`: every suite (services with mocha, frontends with Vitest), then one summary line
// "N passed, N failed" over all of them. Uses DATABASE_URL / REDIS_URL when set, otherwise the
// embedded database and in-process implementations.
//   npm test -- <suite>...                  those suites only
//   npm test -- <suite>... --files <f>...   of those mocha suites, only these test files
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.resolve(root, process.env.TEST_RESULTS_DIR ?? '.test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const filesAt = process.argv.indexOf('--files');
const only = process.argv.slice(2, filesAt === -1 ? undefined : filesAt);
const files = filesAt === -1 ? undefined : process.argv.slice(filesAt + 1).map((file) => path.relative(root, path.resolve(file)));
const mocharc = JSON.parse(readFileSync(path.join(root, '.mocharc.json'), 'utf8'));
/** The services suite's options of .mocharc.json, for a run of some of its files (the file's own list would run them all). */
const servicesOptions = [
  '--no-config',
  ...mocharc['node-option'].flatMap((option) => ['--node-option', option]),
  ...mocharc.require.flatMap((file) => ['--require', file]),
  '--timeout',
  String(mocharc.timeout),
  '--exit',
];
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const suites = [
  {
    name: 'services',
    kind: 'mocha',
    cwd: root,
    owns: (file) => /\.test\.ts$/.test(file) && !/^test\/(browser|faults|multi-node)\//.test(file),
    fileArgs: servicesOptions,
  },
  // Two product processes on one PostgreSQL and Redis behind an alternating proxy; pending, with
  // the reason, without DATABASE_URL and REDIS_URL. Its own options: .mocharc.json leaves it out.
  {
    name: 'multi-node',
    kind: 'mocha',
    cwd: root,
    args: ['--no-config', '--node-option', 'conditions=source', '--node-option', 'import=tsx', '--timeout', '240000', '--exit', 'test/multi-node/**/*.test.ts'],
    owns: (file) => file.startsWith('test/multi-node/'),
  },
  // Faults of the dependencies and of the process (`npm run test:faults`): Redis killed, flushed,
  // slow or silent, PostgreSQL restarted, SIGKILL and SIGTERM under load, each bounded; those that
  // need redis-server or PostgreSQL's server programs are pending, with the reason, without them.
  // Its own options: .mocharc.json leaves it out.
  {
    name: 'faults',
    kind: 'mocha',
    cwd: root,
    args: ['--no-config', '--node-option', 'conditions=source', '--node-option', 'import=tsx', '--require', 'services/core/src/testing/root-hooks.ts', '--timeout', '300000', '--exit', 'test/faults/**/*.test.ts'],
    owns: (file) => file.startsWith('test/faults/'),
  },
  // Real browser flows against `npm start`; they need Debian's Chromium (apt-get install chromium).
  {
    name: 'browser',
    kind: 'mocha',
    cwd: root,
    // Its own options, not .mocharc.json's (whose specs would run again).
    args: ['--no-config', '--node-option', 'conditions=source', '--node-option', 'import=tsx', '--require', 'test/support/flight-recorder.ts', '--timeout', '240000', '--exit', 'test/browser/**/*.browser.ts'],
    owns: (file) => file.startsWith('test/browser/'),
    needs: chromium,
    install: 'apt-get install chromium',
  },
  // Independent relying parties from Debian against the product started by the test: Apache httpd
  // with mod_auth_openidc, and Python's authlib (its test says so when python3-authlib is missing).
  {
    name: 'interop',
    kind: 'mocha',
    cwd: root,
    args: ['--no-config', '--node-option', 'conditions=source', '--node-option', 'import=tsx', '--require', 'services/core/src/testing/root-hooks.ts', '--timeout', '240000', '--exit', 'test/interop/**/*.interop.ts'],
    owns: (file) => file.startsWith('test/interop/'),
    needs: '/usr/lib/apache2/modules/mod_auth_openidc.so',
    install: 'apt-get install apache2 libapache2-mod-auth-openidc python3-authlib python3-requests',
  },
  { name: 'frontend-shared', kind: 'vitest', cwd: path.join(root, 'frontends/shared') },
  { name: 'portal', kind: 'vitest', cwd: path.join(root, 'frontends/portal') },
  { name: 'admin', kind: 'vitest', cwd: path.join(root, 'frontends/admin') },
]
  .filter((s) => only.length === 0 || only.includes(s.name))
  .map((suite) => {
    if (!files) return suite;
    if (suite.kind !== 'mocha') throw new Error(`--files picks test files of mocha suites, not of ${suite.name}`);
    const own = files.filter((file) => suite.owns(file));
    // The suite's options without its list of files (the last argument), then the files picked.
    const options = suite.fileArgs ?? suite.args.slice(0, -1);
    return { ...suite, args: [...options, ...own], empty: own.length === 0 };
  })
  .filter((suite) => !suite.empty);
if (files) {
  const unowned = files.filter((file) => !suites.some((suite) => suite.owns(file)) || !existsSync(path.join(root, file)));
  if (unowned.length) throw new Error(`not a test file of the suites asked for: ${unowned.join(', ')}`);
}

// Redis keys of a run of its own: counts left in a shared Redis by an earlier run (rate limits last
// an hour) never decide this one's tests.
const env = { ...process.env, NODE_ENV: 'test', REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX ?? `gatehouse-test-${randomBytes(6).toString('hex')}` };
const bin = (name) => path.join(root, 'node_modules/.bin', name);
let passed = 0;
let failed = 0;
const lines = [];
const failedTitles = [];
const timings = [];

for (const suite of suites) {
  const file = path.join(resultsDir, `${suite.name}.json`);
  console.log(`\n=== ${suite.name} ===`);
  if (suite.needs && !existsSync(suite.needs)) {
    console.log(`not run: ${suite.needs} is missing (${suite.install})`);
    lines.push(`${suite.name}: not run (no ${suite.needs})`);
    continue;
  }
  const started = Date.now();
  const result =
    suite.kind === 'mocha'
      ? spawnSync(bin('mocha'), ['--reporter', path.join(root, 'scripts/mocha-counting-reporter.cjs'), ...(suite.args ?? [])], {
          cwd: suite.cwd,
          env: { ...env, MOCHA_RESULTS_FILE: file },
          stdio: 'inherit',
        })
      : spawnSync(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], {
          cwd: suite.cwd,
          env,
          stdio: 'inherit',
        });
  let counts;
  if (existsSync(file)) {
    const data = JSON.parse(readFileSync(file, 'utf8'));
    counts =
      suite.kind === 'mocha'
        ? data
        : {
            passed: data.numPassedTests,
            // A file that failed without a failed test (it did not load, say) counts once.
            failed:
              data.numFailedTests +
              data.testResults.filter((file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')).length,
            skipped: data.numPendingTests,
            failedTitles: data.testResults.flatMap((file) => [
              ...(file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed') ? [`${path.relative(root, file.name)}: ${file.message}`] : []),
              ...file.assertionResults
                .filter((t) => t.status === 'failed')
                .map((t) => `${path.relative(root, file.name)} > ${t.fullName} (${String(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300)})`),
            ]),
          };
  } else {
    // The runner died before reporting: count the suite as one failure so it cannot pass silently.
    counts = { passed: 0, failed: 1, skipped: 0 };
  }
  if (result.status !== 0 && counts.failed === 0) {
    counts.failed = 1;
    counts.failedTitles = [...(counts.failedTitles ?? []), `the runner exited with status ${result.status ?? result.signal}`];
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  timings.push({ suite: suite.name, seconds });
  passed += counts.passed;
  failed += counts.failed;
  lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''} (${seconds} s)`);
  // Named again at the end, where a truncated log still shows them.
  for (const title of counts.failedTitles ?? []) {
    lines.push(`  failed: ${title}`);
    failedTitles.push(`${suite.name}: ${title}`);
  }
}

console.log(`\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
writeFileSync(path.join(resultsDir, 'summary.json'), JSON.stringify({ passed, failed, failedTitles, timings }));
process.exit(failed > 0 ? 1 : 0);
