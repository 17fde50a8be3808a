// `npm run bench`: throughput of the provider, measured in one run side by side with a bare
// oidc-provider (in-memory adapter, same RS256 key size) and, for sign-ins, with the ceiling of
// raw argon2 verifications at the same parameters. Loopback only; every phase is bounded in time.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { ARGON2_OPTIONS } from '@gatehouse/core';
import { startTestServer } from '../support/server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = 3;
const ROUND_SECONDS = SECONDS / ROUNDS;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECRET = 'bench-secret-0123456789-abcdefghijklmno';
const PASSWORD = 'Bench-password-42!';
const basic = `Basic ${Buffer.from(`bench:${SECRET}`).toString('base64')}`;
const XSRF = randomBytes(32).toString('base64url');

interface Target {
  name: string;
  url: string;
  issuerPath: string;
  /** Refresh tokens obtained by complete sign-ins. */
  refreshTokens(count: number): Promise<string[]>;
  close(): Promise<void>;
}

/** Requests per second of one autocannon run of `seconds`. */
async function run(url: string, options: Partial<autocannon.Options>, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors during the run`);
  }
  return result.requests.average;
}

/**
 * Measures two contenders on a shared, noisy machine: one warm-up round each, then ROUNDS
 * alternating rounds of SECONDS / ROUNDS, so both see the same slow and fast moments; the figure
 * of each is its mean over the rounds.
 */
async function sideBySide(first: () => Promise<number>, second: () => Promise<number>): Promise<[number, number]> {
  await first();
  await second();
  let a = 0;
  let b = 0;
  for (let round = 0; round < ROUNDS; round++) {
    a += await first();
    b += await second();
  }
  return [a / ROUNDS, b / ROUNDS];
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

/** One complete sign-in: authorize → sign-in → code → tokens. */
async function signIn(base: string, issuerPath: string, login: (uidUrl: URL, jar: ReturnType<typeof cookieJar>) => Promise<string>) {
  const jar = cookieJar();
  const authorize = new URL(`${base}${issuerPath}/auth`);
  authorize.search = new URLSearchParams({ client_id: 'bench', response_type: 'code', scope: 'openid', redirect_uri: `${base}/cb` }).toString();
  const start = await fetch(authorize, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.keep(start);
  const resumeUrl = await login(new URL(start.headers.get('location')!, base), jar);
  const resumed = await fetch(resumeUrl, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.keep(resumed);
  let location = resumed.headers.get('location')!;
  if (!location.startsWith(`${base}/cb`)) {
    // The bare provider passes through its consent page once more.
    const again = await fetch(new URL(location, base), { redirect: 'manual', headers: { cookie: jar.header() } });
    location = again.headers.get('location')!;
  }
  const code = new URL(location).searchParams.get('code')!;
  const token = await fetch(`${base}${issuerPath}/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: `${base}/cb` }),
  });
  if (token.status !== 200) throw new Error(`token endpoint answered ${token.status}: ${await token.text()}`);
  return (await token.json()) as { refresh_token: string; access_token: string };
}

async function ours(): Promise<Target & { signInOnce(): Promise<unknown> }> {
  const server = await startTestServer({
    bootstrap: `
areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity, type: public, roles: [{ name: God }, { name: Administrator }] }
  - id: bench
    name: bench
    displayName: Bench
    type: confidential
    secret: '${SECRET}'
    firstParty: true
    redirectUris: ['\${url}/cb']
    grantTypes: [authorization_code, refresh_token, client_credentials]
users:
  - { userName: bench@example.com, area: Default, password: '${PASSWORD}' }
`,
    overrides: { 'log.level': 'silent' },
  });
  const login = async (loginPage: URL, jar: ReturnType<typeof cookieJar>) => {
    const res = await fetch(`${server.url}/api/v1/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: jar.header(), 'x-xsrf-token': XSRF },
      body: JSON.stringify({ userName: 'bench@example.com', password: PASSWORD, interaction: loginPage.searchParams.get('interaction') }),
    });
    const body = (await res.json()) as { redirectTo: string };
    if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(body)}`);
    return body.redirectTo;
  };
  return {
    name: 'Gatehouse',
    url: server.url,
    issuerPath: '/oidc',
    refreshTokens: async (count) => Promise.all(Array.from({ length: count }, async () => (await signIn(server.url, '/oidc', login)).refresh_token)),
    signInOnce: () => signIn(server.url, '/oidc', login),
    close: () => server.stop(),
  };
}

async function bare(): Promise<Target> {
  // The same published key set as the product: RS256 (which signs), ES256 and EdDSA.
  const keys = await Promise.all(
    (['RS256', 'ES256', 'EdDSA'] as const).map(async (alg) => {
      const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
      return { ...(await exportJWK(privateKey)), alg, use: 'sig', kid: `bench-${alg}` };
    }),
  );
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(base, {
    clients: [
      {
        client_id: 'bench',
        client_secret: SECRET,
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        redirect_uris: [`${base}/cb`],
      },
    ],
    jwks: { keys },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    features: { clientCredentials: { enabled: true }, introspection: { enabled: true }, devInteractions: { enabled: true } },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    pkce: { required: () => false },
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid');
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => void handle(req, res));
  const login = async (loginPage: URL, jar: ReturnType<typeof cookieJar>) => {
    const res = await fetch(new URL(loginPage.pathname, base), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({ prompt: 'login', login: 'bench-user' }),
    });
    jar.keep(res);
    return new URL(res.headers.get('location')!, base).toString();
  };
  return {
    name: 'bare oidc-provider',
    url: base,
    issuerPath: '',
    refreshTokens: async (count) => Promise.all(Array.from({ length: count }, async () => (await signIn(base, '', login)).refresh_token)),
    close: async () => void server.close(),
  };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const tokenHeaders = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };

/** The provider figures of one target, each as a function running one round. */
async function workloads(target: Target) {
  const token = `${target.url}${target.issuerPath}/token`;
  const accessToken = ((await (await fetch(token, { method: 'POST', headers: tokenHeaders, body: form({ grant_type: 'client_credentials' }) })).json()) as { access_token: string }).access_token;
  // Rotating refresh tokens circulate: each request takes one, its answer puts the next back.
  const pool: string[] = [];
  return {
    clientCredentials: () => run(token, { method: 'POST', headers: tokenHeaders, body: form({ grant_type: 'client_credentials' }) }, ROUND_SECONDS),
    introspection: () => run(`${target.url}${target.issuerPath}/token/introspection`, { method: 'POST', headers: tokenHeaders, body: form({ token: accessToken }) }, ROUND_SECONDS),
    jwks: () => run(`${target.url}${target.issuerPath}/jwks`, {}, ROUND_SECONDS),
    refresh: async () => {
      // A round ends with requests in flight whose answers (the next tokens) are dropped: top up.
      if (pool.length < CONNECTIONS * 2) pool.push(...(await target.refreshTokens(CONNECTIONS * 2 - pool.length)));
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

/** Completed operations per second of `task`, run by `workers` loops for `seconds`. */
async function loop(workers: number, task: () => Promise<unknown>, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) {
        await task();
        done++;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

async function main() {
  console.log(`Loopback benchmark: ${SECONDS} s per figure and contender (${ROUNDS} alternating rounds after a warm-up), ${CONNECTIONS} connections, ${availableParallelism()} CPUs, database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`);
  const reference = await bare();
  const product = await ours();
  try {
    const mine = await workloads(product);
    const base = await workloads(reference);
    const [clientCredentials, clientCredentialsRef] = await sideBySide(mine.clientCredentials, base.clientCredentials);
    const [introspection, introspectionRef] = await sideBySide(mine.introspection, base.introspection);
    const [jwks, jwksRef] = await sideBySide(mine.jwks, base.jwks);
    const [refresh, refreshRef] = await sideBySide(mine.refresh, base.refresh);

    const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
    const [signIns, argon2Ceiling] = await sideBySide(
      () => loop(CONNECTIONS, () => product.signInOnce(), ROUND_SECONDS),
      () => loop(availableParallelism(), () => argon2.verify(hash, PASSWORD), ROUND_SECONDS),
    );

    const rows: Array<[string, number, number, number]> = [
      ['client-credentials tokens/s', clientCredentials, clientCredentialsRef, 0.8],
      ['refresh-token grants/s', refresh, refreshRef, 0.8],
      ['introspections/s', introspection, introspectionRef, 0.8],
      ['JWKS/s', jwks, jwksRef, 0],
      ['password sign-ins/s (vs argon2 verifications/s)', signIns, argon2Ceiling, 0.8],
    ];
    console.log(`\n${'figure'.padEnd(50)} ${'Gatehouse'.padStart(10)} ${'reference'.padStart(10)} ${'ratio'.padStart(7)}  target`);
    let missed = 0;
    for (const [label, value, ref, target] of rows) {
      const ratio = value / ref;
      const verdict = target ? (ratio >= target ? `>= ${target} ok` : `>= ${target} MISSED`) : '';
      if (target && ratio < target) missed++;
      console.log(`${label.padEnd(50)} ${value.toFixed(0).padStart(10)} ${ref.toFixed(0).padStart(10)} ${ratio.toFixed(2).padStart(7)}  ${verdict}`);
    }
    console.log(missed ? `\n${missed} target(s) missed` : '\nall targets met');
  } finally {
    await product.close();
    await reference.close();
  }
}

await main();
process.exit(0);
