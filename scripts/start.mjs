// `npm start`: builds what is missing, then runs the launcher (migrate, bootstrap, serve).
// Arguments are passed on: --only=idp | --only=admin-api, --migrate-only, --rotate-keys, --unlock <userName>.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs one build step, saying what it builds and, after, how long it took. */
function step(what, command, args) {
  const started = Date.now();
  console.log(`${what}…`);
  run(command, args);
  console.log(`  done in ${Math.round((Date.now() - started) / 1000)} s`);
}

// Incremental: a no-op (under a second) when the services are already built and unchanged; said
// aloud when nothing is built yet, as after `npm ci`, when it takes a minute or two.
const tsc = [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'];
if (existsSync(path.join(root, 'services/launcher/dist/main.js'))) run(process.execPath, tsc);
else step('Compiling the services (first start only, a minute or two)', process.execPath, tsc);

const servesPages = !process.argv.some((a) => a === '--rotate-keys' || a === '--migrate-only' || a === '--unlock');
const missing = servesPages ? ['portal', 'admin'].filter((app) => !existsSync(path.join(root, 'frontends', app, 'dist/index.html'))) : [];
if (missing.length) {
  step(`Building the ${missing.join(' and ')} pages (first start only, about a minute)`, 'npm', ['run', 'build', ...missing.flatMap((app) => ['-w', `@gatehouse/${app}`])]);
}

process.chdir(root);
await import(pathToFileURL(path.join(root, 'services/launcher/dist/main.js')).href);
