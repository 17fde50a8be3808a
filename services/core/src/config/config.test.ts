import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CONFIG_KEYS } from './definition.js';
import { ConfigError, loadConfig } from './loader.js';

function configDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-config-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration loader', () => {
  it('applies the documented defaults when nothing is configured', () => {
    const config = loadConfig({ env: {}, configDir: configDir() });
    expect(config.server.port).to.equal(3000);
    expect(config.server.host).to.equal('127.0.0.1');
    expect(config.server.publicUrl).to.equal('http://localhost:3000');
    expect(config.oidc.issuer).to.equal('http://localhost:3000/oidc');
    expect(config.database.url).to.equal(undefined);
    expect(config.database.dataDir).to.equal('./data');
    expect(config.redis.url).to.equal(undefined);
    expect(config.bootstrap.file).to.equal('config/bootstrap.yaml');
  });

  it('layers default.yaml, <NODE_ENV>.yaml, local.yaml and then the environment', () => {
    const dir = configDir({
      'default.yaml': 'server:\n  port: 4000\n  bodyLimit: 2mb\nlog:\n  level: warn\n',
      'production.yaml': 'server:\n  port: 5000\n',
      'local.yaml': 'log:\n  level: debug\n',
    });
    const env = { NODE_ENV: 'production', IDP_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), PORT: '6000' };
    const config = loadConfig({ env, configDir: dir });
    expect(config.server.port, 'env wins over files').to.equal(6000);
    expect(config.server.bodyLimit, 'default.yaml applies').to.equal('2mb');
    expect(config.log.level, 'local.yaml wins over default.yaml').to.equal('debug');
    expect(config.server.publicUrl).to.equal('http://localhost:6000');
  });

  it('derives the issuer from PUBLIC_URL and strips trailing slashes', () => {
    const config = loadConfig({ env: { PUBLIC_URL: 'https://id.example.com/' }, configDir: configDir() });
    expect(config.server.publicUrl).to.equal('https://id.example.com');
    expect(config.oidc.issuer).to.equal('https://id.example.com/oidc');
  });

  it('reports every problem at once, each naming its key and variable', () => {
    const dir = configDir({ 'default.yaml': 'server:\n  prot: 1\n' });
    const problems = problemsOf(() =>
      loadConfig({
        env: { PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', REDIS_URL: 'http://r', IDP_ADMIN_USERNAME: 'admin' },
        configDir: dir,
      }),
    );
    const joined = problems.join('\n');
    expect(problems).to.have.length(6);
    expect(joined).to.contain('server.prot (in default.yaml): unknown configuration key');
    expect(joined).to.match(/server\.port \(PORT, from env PORT\)/);
    expect(joined).to.match(/database\.url \(DATABASE_URL.*expected a postgres:\/\/ URL/);
    expect(joined).to.match(/log\.level \(LOG_LEVEL/);
    expect(joined).to.match(/redis\.url \(REDIS_URL.*expected a redis:\/\/ URL/);
    expect(joined).to.match(/bootstrap\.adminUserName \(IDP_ADMIN_USERNAME/);
  });

  it('reports a YAML syntax error with the file name', () => {
    const dir = configDir({ 'default.yaml': 'server: [unclosed\n' });
    const problems = problemsOf(() => loadConfig({ env: {}, configDir: dir }));
    expect(problems[0]).to.match(/default\.yaml: not valid YAML/);
  });

  it('requires an explicit encryption key in production', () => {
    const problems = problemsOf(() => loadConfig({ env: { NODE_ENV: 'production' }, configDir: configDir() }));
    expect(problems).to.deep.equal(['security.encryptionKey (IDP_ENCRYPTION_KEY): required when NODE_ENV is production']);
  });

  it('rejects an encryption key that is not 32 bytes and a short admin password', () => {
    const problems = problemsOf(() =>
      loadConfig({ env: { IDP_ENCRYPTION_KEY: 'c2hvcnQ=', IDP_ADMIN_PASSWORD: 'short' }, configDir: configDir() }),
    );
    expect(problems.join('\n')).to.match(/security\.encryptionKey.*32 bytes/).and.match(/bootstrap\.adminPassword.*at least 12/);
  });

  it('keeps signing in as another user off, for 30 minutes at most, unless told; 1 to 480 minutes', () => {
    const defaults = loadConfig({ env: {}, configDir: configDir() });
    expect(defaults.identifyAs).to.deep.equal({ enabled: false, maxMinutes: 30 });
    const on = loadConfig({ env: { IDENTIFY_AS_ENABLED: 'true', IDENTIFY_AS_MAX_MINUTES: '480' }, configDir: configDir() });
    expect(on.identifyAs).to.deep.equal({ enabled: true, maxMinutes: 480 });
    for (const minutes of ['0', '481', 'ten']) {
      const problems = problemsOf(() => loadConfig({ env: { IDENTIFY_AS_MAX_MINUTES: minutes }, configDir: configDir() }));
      expect(problems.join('\n'), minutes).to.match(/identifyAs\.maxMinutes \(IDENTIFY_AS_MAX_MINUTES/);
    }
  });

  it('is documented key by key in the README configuration table', () => {
    const readme = readFileSync(path.resolve('README.md'), 'utf8');
    for (const key of CONFIG_KEYS) {
      expect(readme, `README documents ${key.key}`).to.contain(`| \`${key.key}\` | \`${key.env}\` |`);
    }
  });
});
