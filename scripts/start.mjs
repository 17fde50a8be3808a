// `npm start`: builds what is missing, then runs the launcher (migrate, bootstrap, serve).
// Arguments are passed on: --only=idp | --only=admin-api, --migrate-only, --rotate-keys, --unlock <userName>,
// --export-config [file].
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The configuration export may write its file to the standard output: then what the build says goes to the standard error.
const exporting = process.argv.includes('--export-config');
const say = exporting ? console.error : console.log;
const out = exporting ? process.stderr : process.stdout;

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['inherit', exporting ? 'pipe' : 'inherit', 'inherit'] });
  if (exporting && result.stdout?.length) process.stderr.write(result.stdout);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs one build step, saying what it builds and, after, how long it took. */
function step(what, command, args) {
  const started = Date.now();
  out.write(`  ${what}…`);
  run(command, args);
  say(` ${Math.round((Date.now() - started) / 1000)} s`);
}

// The services, in dependency order (tsconfig.build.json's references).
const projects = JSON.parse(readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8')).references.map((r) => r.path);
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
// Incremental: a no-op (under a second) when the services are already built and unchanged. After
// `npm ci` nothing is built yet: each project is compiled in turn, said aloud with its time.
if (existsSync(path.join(root, 'services/launcher/dist/main.js'))) run(process.execPath, [tsc, '-b', 'tsconfig.build.json']);
else {
  const started = Date.now();
  say(`First start: compiling the services (${projects.length} projects, about half a minute)`);
  projects.forEach((project, i) => step(`[${i + 1}/${projects.length}] ${project}`, process.execPath, [tsc, '-b', project]));
  say(`  compiled in ${Math.round((Date.now() - started) / 1000)} s`);
}

const servesPages = !process.argv.some((a) => a === '--rotate-keys' || a === '--migrate-only' || a === '--unlock' || a === '--export-config');
const missing = servesPages ? ['portal', 'admin'].filter((app) => !existsSync(path.join(root, 'frontends', app, 'dist/index.html'))) : [];
if (missing.length) {
  const started = Date.now();
  say(`First start: building the ${missing.join(' and ')} pages (about ${missing.length * 10} s)`);
  // Vite's own report (a line per file) stays out of the way; its warnings and errors still show.
  missing.forEach((app, i) => step(`[${i + 1}/${missing.length}] frontends/${app}`, 'npm', ['run', 'build', '--silent', '-w', `@gatehouse/${app}`, '--', '--logLevel', 'warn']));
  say(`  built in ${Math.round((Date.now() - started) / 1000)} s`);
}

process.chdir(root);
await import(pathToFileURL(path.join(root, 'services/launcher/dist/main.js')).href);
