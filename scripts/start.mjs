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

// Incremental: a no-op when the services are already built and unchanged.
run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json']);

const servesPages = !process.argv.some((a) => a === '--rotate-keys' || a === '--migrate-only' || a === '--unlock');
const missing = servesPages ? ['portal', 'admin'].filter((app) => !existsSync(path.join(root, 'frontends', app, 'dist/index.html'))) : [];
if (missing.length) {
  console.log(`Building ${missing.join(' and ')} (first start only)…`);
  run('npm', ['run', 'build', ...missing.flatMap((app) => ['-w', `@gatehouse/${app}`])]);
}

process.chdir(root);
await import(pathToFileURL(path.join(root, 'services/launcher/dist/main.js')).href);
