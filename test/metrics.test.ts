// What an operator scrapes at /metrics after real traffic: sign-ins, token grants, a refresh token
// reused, an administrator's lock, admin API calls; the exposition passes Prometheus' own linter,
// and every metric the Grafana dashboard queries is exposed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Browser } from './support/browser.js';
import { PKCE, PKCE_VERIFIER } from './support/flows.js';
import { ROOT } from './support/product.js';
import { startTestServer, type TestServer } from './support/server.js';

const PASSWORD = 'Correct-Horse-42!';
const PROMTOOL = '/usr/bin/promtool';
const DASHBOARD = path.join(ROOT, 'deploy/grafana/gatehouse-dashboard.json');

const BOOTSTRAP = `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, redirectUris: ['\${url}/admin/auth/callback'] }
  - { id: spa, name: spa, displayName: Portal, type: public, firstParty: true, redirectUris: ['\${url}/spa/callback'], grantTypes: [authorization_code, refresh_token] }
users:
  - userName: god@example.com
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships: [{ tenant: Global, application: '1', roles: [God] }]
  - { userName: bob@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: carol@example.com, area: Default, language: en, password: '${PASSWORD}' }
  - { userName: dave@example.com, area: Default, language: en, password: '${PASSWORD}' }
`;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (values of one line each; labels without escapes). */
function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample named so whose labels include `labels`; 0 when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(found.length, `${name}${JSON.stringify(labels)} matches one series at most`).to.be.at.most(1);
  return found[0]?.value ?? 0;
}

/** Runs `promtool check metrics` on the text: its exit code and everything it printed. */
function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

const PROMQL_WORDS = new Set([
  ...['sum', 'min', 'max', 'avg', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'group'],
  ...['rate', 'irate', 'increase', 'delta', 'idelta', 'deriv', 'histogram_quantile', 'clamp_min', 'clamp_max', 'abs', 'ceil', 'floor', 'round'],
  ...['avg_over_time', 'max_over_time', 'min_over_time', 'sum_over_time', 'last_over_time', 'vector', 'scalar', 'time', 'label_replace', 'absent'],
  ...['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset'],
]);

/** The metric names a PromQL expression selects: what is left once labels, ranges, strings, numbers, groupings and functions are taken out. */
function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+|\$\{[^}]*\}/g, ' ');
  const names = bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(names.filter((name) => !PROMQL_WORDS.has(name) && !/^\d/.test(name)))];
}

describe('metrics an operator scrapes', function () {
  this.timeout(180_000);
  let server: TestServer;
  let scraped: string;

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).to.equal(200);
    return res.text();
  };

  /** A browser at the sign-in page of a new authorization request of `client`. */
  async function signInPage(client: string, scope: string): Promise<Browser> {
    const browser = new Browser(server.url);
    const params = new URLSearchParams({ client_id: client, response_type: 'code', scope, redirect_uri: `${server.url}/${client === 'spa' ? 'spa' : 'admin/auth'}/callback`, ...PKCE });
    await browser.get(`/oidc/auth?${params}`);
    await browser.get('/api/v1/config');
    return browser;
  }

  /** Signs in with the password and redeems the code: the token response. */
  async function tokens(userName: string, client: string, scope: string): Promise<{ access_token: string; refresh_token?: string }> {
    const browser = await signInPage(client, scope);
    const login = await browser.postJson('/api/v1/account/login', { userName, password: PASSWORD });
    const body = (await login.json()) as { redirectTo: string };
    expect(login.status, JSON.stringify(body)).to.equal(200);
    const { url } = await browser.follow(body.redirectTo);
    const redirectUri = `${server.url}/${client === 'spa' ? 'spa' : 'admin/auth'}/callback`;
    const code = new URL(url).searchParams.get('code')!;
    return grant({ grant_type: 'authorization_code', code, client_id: client, redirect_uri: redirectUri, code_verifier: PKCE_VERIFIER });
  }

  async function grant(form: Record<string, string>): Promise<{ access_token: string; refresh_token?: string; error?: string }> {
    const res = await fetch(`${server.url}/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
    return (await res.json()) as { access_token: string; refresh_token?: string; error?: string };
  }

  before(async () => {
    // Limits high enough that only the account lockout decides.
    const noThrottle = { 'security.signInRequestsPerMinute': 1_000_000, 'security.failuresPerAddressPerHour': 1_000_000, 'security.failuresPerAccountAndAddressPerDay': 1_000_000 };
    server = await startTestServer({ bootstrap: BOOTSTRAP, overrides: noThrottle });
    const before = samplesOf(await scrape());
    expect(valueOf(before, 'gatehouse_sign_ins_total', { method: 'password', outcome: 'success' }), 'nothing counted before the traffic').to.equal(0);

    // A wrong password, then good ones: for the portal and for the console.
    const wrong = await (await signInPage('spa', 'openid')).postJson('/api/v1/account/login', { userName: 'bob@example.com', password: 'Not-the-password-1!' });
    expect(wrong.status).to.equal(401);
    // Five wrong passwords in a row lock an account for a while: the fifth is answered as the lock.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const guess = await (await signInPage('spa', 'openid')).postJson('/api/v1/account/login', { userName: 'dave@example.com', password: `Wrong-guess-${attempt}!` });
      expect(guess.status, `guess ${attempt}`).to.equal(attempt < 5 ? 401 : 423);
    }
    const portal = await tokens('bob@example.com', 'spa', 'openid');
    expect(portal.refresh_token, 'the portal client is given a refresh token').to.be.a('string');
    const god = await tokens('god@example.com', 'admin-console', 'openid profile admin');

    // The refresh token rotates; the used one presented again ends the grant.
    const refreshed = await grant({ grant_type: 'refresh_token', refresh_token: portal.refresh_token!, client_id: 'spa' });
    expect(refreshed.access_token).to.be.a('string');
    expect((await grant({ grant_type: 'refresh_token', refresh_token: portal.refresh_token!, client_id: 'spa' })).error).to.equal('invalid_grant');

    // Admin API calls: a list, an administrator's lock, and a refused one.
    const admin = (method: string, url: string) => fetch(`${server.url}${url}`, { method, headers: { authorization: `Bearer ${god.access_token}`, 'accept-language': 'en' } });
    expect((await admin('GET', '/api/v1/admin/users')).status).to.equal(200);
    const [carol] = await server.server.context.dataSource.query(`SELECT id FROM users WHERE normalized_user_name = 'carol@example.com'`);
    expect((await admin('GET', `/api/v1/account/lock/${carol.id}`)).status).to.equal(200);
    expect((await admin('GET', '/api/v1/admin/users/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    scraped = await scrape();
  });
  after(() => server?.stop());

  it('counts sign-ins by method and outcome', () => {
    const samples = samplesOf(scraped);
    expect(valueOf(samples, 'gatehouse_sign_ins_total', { method: 'password', outcome: 'success' })).to.equal(2);
    expect(valueOf(samples, 'gatehouse_sign_ins_total', { method: 'password', outcome: 'wrong_password' })).to.equal(5);
    expect(valueOf(samples, 'gatehouse_sign_ins_total', { method: 'password', outcome: 'locked' })).to.equal(1);
  });

  it('counts an account locked by failed attempts', () => {
    expect(valueOf(samplesOf(scraped), 'gatehouse_account_lockouts_total', { cause: 'failed_attempts', kind: 'temporary' })).to.equal(1);
  });

  it('counts token grants by grant type, client and outcome, and the reuse of a rotated refresh token', () => {
    const samples = samplesOf(scraped);
    expect(valueOf(samples, 'gatehouse_token_grants_total', { grant_type: 'authorization_code', client: 'spa', outcome: 'success' })).to.equal(1);
    expect(valueOf(samples, 'gatehouse_token_grants_total', { grant_type: 'authorization_code', client: 'admin-console', outcome: 'success' })).to.equal(1);
    expect(valueOf(samples, 'gatehouse_token_grants_total', { grant_type: 'refresh_token', client: 'spa', outcome: 'success' })).to.equal(1);
    expect(valueOf(samples, 'gatehouse_token_grants_total', { grant_type: 'refresh_token', client: 'spa', outcome: 'invalid_grant' })).to.equal(1);
    expect(valueOf(samples, 'gatehouse_refresh_token_reuse_total')).to.equal(1);
  });

  it('counts admin API calls by endpoint group and status class, and the lock an administrator set', () => {
    const samples = samplesOf(scraped);
    expect(valueOf(samples, 'gatehouse_admin_api_requests_total', { group: 'users', status_class: '2xx' })).to.equal(2);
    expect(valueOf(samples, 'gatehouse_admin_api_requests_total', { group: 'users', status_class: '4xx' })).to.equal(1);
    expect(valueOf(samples, 'gatehouse_account_lockouts_total', { cause: 'administrator', kind: 'permanent' })).to.equal(1);
  });

  it('reports the database pool, statement durations and the stored backlogs at scrape time', () => {
    const samples = samplesOf(scraped);
    expect(valueOf(samples, 'gatehouse_db_pool_max_connections')).to.be.greaterThan(0);
    expect(valueOf(samples, 'gatehouse_db_pool_connections', { state: 'idle' }) + valueOf(samples, 'gatehouse_db_pool_connections', { state: 'in_use' })).to.be.greaterThan(0);
    expect(valueOf(samples, 'gatehouse_db_statement_duration_seconds_count', { operation: 'select' })).to.be.greaterThan(0);
    expect(valueOf(samples, 'gatehouse_db_statement_duration_seconds_count', { operation: 'insert' })).to.be.greaterThan(0);
    expect(valueOf(samples, 'gatehouse_metrics_source_up', { source: 'database' })).to.equal(1);
    expect(samples.some((s) => s.name === 'gatehouse_job_queue_waiting_jobs' && s.labels.type === 'AdminReport')).to.equal(true);
    expect(samples.some((s) => s.name === 'gatehouse_mail_outbox_pending_messages')).to.equal(true);
    expect(samples.some((s) => s.name === 'gatehouse_webhook_deliveries_pending')).to.equal(true);
    expect(valueOf(samples, 'gatehouse_notification_hub_connections')).to.equal(0);
  });

  it('never labels a series with a user name, an e-mail address or a raw path', () => {
    expect(scraped).to.not.match(/@example\.com/);
    for (const sample of samplesOf(scraped)) {
      for (const value of Object.values(sample.labels)) expect(value, `${sample.name}`).to.not.match(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
  });

  it('passes `promtool check metrics` without a single finding', async function () {
    if (!existsSync(PROMTOOL)) {
      if (process.env.CI === 'true') expect.fail(`${PROMTOOL} is missing: install Debian's prometheus package (apt-get install prometheus)`);
      this.skip();
    }
    const { code, output } = await promtoolCheck(scraped);
    expect(output.trim(), 'promtool findings').to.equal('');
    expect(code).to.equal(0);
  });

  it('exposes every metric the Grafana dashboard queries', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { __inputs: Array<{ name: string }>; panels: Array<{ title: string; datasource?: { uid?: string }; targets?: Array<{ expr: string }> }> };
    expect(dashboard.__inputs.map((input) => input.name)).to.include('DS_PROMETHEUS');
    const families = new Set([...scraped.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]!));
    const histograms = new Set([...scraped.matchAll(/^# TYPE (\S+) histogram$/gm)].map((m) => m[1]!));
    const exposed = (name: string) => families.has(name) || [...histograms].some((h) => [`${h}_bucket`, `${h}_sum`, `${h}_count`].includes(name));
    let queried = 0;
    for (const panel of dashboard.panels) {
      if (!panel.targets) continue;
      expect(panel.datasource?.uid, panel.title).to.equal('${DS_PROMETHEUS}');
      for (const { expr } of panel.targets) {
        const names = metricNamesOf(expr);
        expect(names, `${panel.title}: ${expr}`).to.not.be.empty;
        for (const name of names) expect(exposed(name), `${panel.title}: ${name} is not exposed`).to.equal(true);
        queried += names.length;
      }
    }
    expect(queried).to.be.greaterThan(10);
  });
});
