// The container image and the compose stack, checked by reading them (no container engine runs
// here): what the image is built from and runs as, and that the stack's settings are ones the
// product knows and its routing matches the launcher's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_KEYS, loadConfig } from '@gatehouse/core';
import { ROUTE_PREFIXES } from '@gatehouse/admin-api';
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const ENV_NAMES = new Set(CONFIG_KEYS.map((k) => k.env));

interface Stage {
  from: string;
  name?: string;
  lines: string[];
}

/** The Dockerfile's stages, continuation lines joined and comments dropped. */
function stages(dockerfile: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const result: Stage[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) {
      result.push({ from: from[1]!.replace(/\$\{(\w+)\}/g, (_, n: string) => args[n] ?? ''), name: from[2], lines: [] });
    } else if (result.length === 0) {
      const arg = /^ARG\s+(\w+)=(\S+)$/.exec(line);
      if (arg) args[arg[1]!] = arg[2]!;
    } else {
      result[result.length - 1]!.lines.push(line);
    }
  }
  return { args, stages: result };
}

describe('deployment: the container image and the compose stack', () => {
  describe('deploy/Dockerfile', () => {
    const { stages: all } = stages(read('deploy/Dockerfile'));
    const final = all[all.length - 1]!;

    it('builds in stages on Node.js 22 LTS', () => {
      expect(all.length).to.be.at.least(3);
      for (const stage of all) expect(stage.from, stage.name ?? 'final stage').to.match(/^node:22(-bookworm)?-slim$/);
      expect(all.slice(0, -1).map((s) => s.name)).to.deep.equal(['build', 'deps']);
    });

    it('installs only the services’ production dependencies into the image', () => {
      const deps = all.find((s) => s.name === 'deps')!;
      const install = deps.lines.filter((l) => l.startsWith('RUN ') && l.includes('npm '));
      expect(install).to.have.length(1);
      expect(install[0]).to.match(/npm ci --omit=dev --workspace=@gatehouse\/launcher /);
      expect(final.lines.some((l) => /\bnpm (ci|install|i)\b/.test(l)), 'nothing is installed in the final stage').to.equal(false);
      const copied = final.lines.filter((l) => l.startsWith('COPY'));
      expect(copied.filter((l) => l.includes('--from=build')).every((l) => /\/dist\s|bootstrap\.yaml/.test(l)), 'only built files come from the build stage').to.equal(true);
      expect(copied.some((l) => /--from=deps \/app \/app$/.test(l)), 'the production dependencies come from deps').to.equal(true);
      for (const service of ['core', 'idp', 'admin-api', 'launcher']) expect(copied.join('\n')).to.contain(`services/${service}/dist`);
      for (const spa of ['portal', 'admin']) expect(copied.join('\n')).to.contain(`frontends/${spa}/dist`);
    });

    it('runs as the unprivileged node user, with a health check on /health/ready, the launcher as entry point', () => {
      const user = final.lines.filter((l) => l.startsWith('USER '));
      expect(user).to.deep.equal(['USER node']);
      const afterUser = final.lines.slice(final.lines.indexOf('USER node'));
      expect(afterUser.some((l) => l.startsWith('RUN ')), 'nothing runs as root after USER').to.equal(false);
      expect(final.lines.find((l) => l.startsWith('HEALTHCHECK'))).to.contain('/health/ready');
      expect(final.lines.find((l) => l.startsWith('ENTRYPOINT'))).to.equal('ENTRYPOINT ["node", "services/launcher/dist/main.js"]');
      const env = final.lines.find((l) => l.startsWith('ENV '))!.slice(4).split(/\s+/);
      for (const pair of env) expect(ENV_NAMES.has(pair.split('=')[0]!), pair).to.equal(true);
      expect(env).to.include.members(['NODE_ENV=production', 'HOST=0.0.0.0']);
    });

    it('keeps dependencies, builds and local data out of the build context', () => {
      const ignored = read('deploy/Dockerfile.dockerignore')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'));
      expect(ignored).to.include.members(['**/node_modules', '**/dist', '.git', 'data', 'config/local.yaml', '.env']);
    });
  });

  describe('deploy/compose.yaml', () => {
    const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, Record<string, unknown>> };
    const { services } = compose;
    /** The product's environment with compose's `${VAR:-default}` and `${VAR:?message}` filled as they would be. */
    const environment = (name: string) =>
      Object.fromEntries(
        Object.entries(services[name]!.environment as Record<string, string>).map(([k, v]) => [
          k,
          v.replace(/\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_, n: string, fallback?: string) => fallback ?? { IDP_ENCRYPTION_KEY: Buffer.alloc(32, 2).toString('base64'), IDP_ADMIN_PASSWORD: 'Admin-password-123!' }[n] ?? ''),
        ]),
      );

    it('runs the product beside PostgreSQL, Redis and a mail catcher, each service on its own', () => {
      expect(Object.keys(services)).to.include.members(['postgres', 'redis', 'mail', 'idp', 'admin-api', 'ingress']);
      expect(services.idp!.command).to.deep.equal(['--only=idp']);
      expect(services['admin-api']!.command).to.deep.equal(['--only=admin-api']);
      for (const name of ['idp', 'admin-api']) {
        expect(services[name]!.build).to.deep.equal({ context: '..', dockerfile: 'deploy/Dockerfile' });
        expect(Object.keys(services[name]!.depends_on as object)).to.have.members(['postgres', 'redis', 'mail']);
      }
    });

    it('gives the product settings its loader accepts, mails going to the mail catcher', () => {
      for (const name of ['idp', 'admin-api']) {
        const env = environment(name);
        for (const key of Object.keys(env)) expect(ENV_NAMES.has(key), `${key} is a setting of the product`).to.equal(true);
        const config = loadConfig({ env: { ...env, NODE_ENV: 'production' }, configDir: path.join(ROOT, 'config') });
        const smtp = new URL(config.mail.smtpUrl!);
        expect(smtp.hostname, 'the mail catcher’s service name').to.equal('mail');
        expect(smtp.port).to.equal('1025');
        expect(new URL(config.database.url!).hostname).to.equal('postgres');
        expect(new URL(config.redis.url!).hostname).to.equal('redis');
        expect(config.server.trustProxy).to.equal(true);
      }
    });

    it('serves /metrics to nobody through the ingress: the image runs in production, without a token or a metrics port, and the product publishes no port', () => {
      const image = stages(read('deploy/Dockerfile')).stages.at(-1)!;
      expect(image.lines.find((l) => l.startsWith('ENV '))).to.contain('NODE_ENV=production');
      for (const name of ['idp', 'admin-api']) {
        expect(services[name]!.ports, `${name} is reached through the ingress only`).to.equal(undefined);
        const config = loadConfig({ env: { ...environment(name), NODE_ENV: 'production' }, configDir: path.join(ROOT, 'config') });
        expect(config.metrics.token, name).to.equal(undefined);
        expect(config.metrics.port, name).to.equal(undefined);
      }
    });

    it('publishes its ports on the loopback interface by default and runs images pinned to a version', () => {
      const raw = parseYaml(read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, { image?: string; ports?: string[] }> };
      for (const [name, service] of Object.entries(raw.services)) {
        // An image of its own (the product's, built here) or another's at a version: never a moving tag.
        const image = service.image ?? '';
        expect(image, name).to.match(/^[\w./-]+:[\w.-]+$/);
        if (image !== 'gatehouse:local') expect(image.split(':').at(-1), `${name}: ${image}`).to.match(/^v?\d+\.\d+(\.\d+)?$/);
        for (const port of service.ports ?? []) {
          expect(port, `${name} publishes ${port}`).to.match(/^\$\{BIND_ADDRESS:-127\.0\.0\.1\}:\d+:\d+$/);
        }
      }
      expect(Object.values(raw.services).flatMap((s) => s.ports ?? [])).to.have.length(2);
    });

    it('routes the admin API’s paths to admin-api at the ingress, as the launcher does', () => {
      const caddy = read('deploy/Caddyfile');
      const matcher = /@admin path (.+)/.exec(caddy)![1]!.split(/\s+/).map((p) => p.replace('{$BASE_PATH}', ''));
      const toAdmin = (p: string) => matcher.some((m) => (m.endsWith('/*') ? p.startsWith(m.slice(0, -1)) : p === m));
      // Each prefix itself (a route of that path) or what is under it (routes below it).
      for (const prefix of ROUTE_PREFIXES) {
        expect(toAdmin(prefix) || toAdmin(`${prefix}/x`), prefix).to.equal(true);
      }
      for (const other of ['/', '/oidc/token', '/api/v1/account/login', '/api/v1/config', '/administrator', '/api/v1/administer']) {
        expect(toAdmin(other), other).to.equal(false);
      }
      expect((services.ingress!.environment as Record<string, string>).BASE_PATH).to.equal('${BASE_PATH:-}');
    });
  });
});
