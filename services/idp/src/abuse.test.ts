import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ALL_ROUTES, BULK_OPERATION_REQUEST_PREFIXES, type RouteContract } from '@gatehouse/contracts';
import { hashPassword, type AppContext, type User } from '@gatehouse/core';
import {
  ABUSE_SEED,
  HOSTILE_STRINGS,
  assertWithstandsAbuse,
  buildApplication,
  buildUser,
  changedTables,
  createTestContext,
  errorBodyProblem,
  fingerprint,
  messageProblemOf,
  multipartBody,
  productTables,
  trackSends,
  translationProblem,
  type AbuseAnswer,
  type AbuseRequest,
  type AbuseRun,
  type AbuseTarget,
} from '@gatehouse/core/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import request from 'supertest';
import { createApp, type IdpApp } from './app.js';

const RUNS_PER_ROUTE = 10;

/** Paths the administration service serves; every other declared route is this service's. */
const ADMIN_SERVICE_PREFIXES = ['/api/v1/admin', '/api/v1/account/lock', '/api/v1/account/unlock', '/api/v1/keys', '/api/v1/external', ...BULK_OPERATION_REQUEST_PREFIXES];
const isAdminServicePath = (p: string) => ADMIN_SERVICE_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
const ROUTES = ALL_ROUTES.filter((route) => !isAdminServicePath(route.path));

/** Refused credentials are recorded by design: counted toward the lockout and logged. */
const SIGN_IN_RECORDS = ['authentication_logs', 'sign_in_attempts', 'users'];

/** A one-pixel PNG: a picture and a document the routes take. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function fakePortalBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'gatehouse-portal-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><title>Gatehouse</title></head><body></body></html>');
  return dist;
}

/** An access token the provider issued to the portal for the user, as a sign-in leaves it. */
async function portalToken(app: IdpApp, context: AppContext, user: User): Promise<string> {
  const provider = app.host.current;
  const clientId = context.config.oidc.portalClientId;
  const client = await provider.Client.find(clientId);
  const grant = new provider.Grant({ accountId: user.id, clientId });
  grant.addOIDCScope('openid profile email');
  const grantId = await grant.save();
  const token = new provider.AccessToken({ accountId: user.id, client: client!, grantId, scope: 'openid profile email', gty: 'authorization_code' });
  return token.save();
}

describe('identity provider abuse: generated bad input on every public and self-service route', function () {
  this.timeout(1_200_000);
  let context: AppContext;
  let app: IdpApp;
  let server: ReturnType<IdpApp['callback']>;
  let user: User;
  let relying: Awaited<ReturnType<typeof buildApplication>>;
  let token: string;
  let xsrf: string;
  let tables: string[];
  let mailsQueued: () => Promise<void>;

  before(async () => {
    // No sweep during the run: a sweep deleting expired rows would look like a write.
    context = await createTestContext({ overrides: { 'oidc.sweepIntervalMs': 3_600_000 } });
    const db = context.dataSource;
    await buildApplication(db, {
      id: context.config.oidc.portalClientId,
      name: context.config.oidc.portalClientId,
      clientType: 'public',
      isFirstParty: true,
      redirectUris: ['http://localhost:0/auth/callback'],
    });
    relying = await buildApplication(db, { id: `rp-${randomBytes(4).toString('hex')}`, clientType: 'public', redirectUris: ['https://rp.example.com/cb'] });
    user = await buildUser(db, { passwordHash: await hashPassword('Correct-Horse-42!'), firstName: 'Ann', lastName: 'Example' });
    app = await createApp(context, { portalDist: fakePortalBuild() });
    server = app.callback();
    token = await portalToken(app, context, user);
    const config = await request(server).get('/api/v1/config');
    xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(config.headers['set-cookie']))![1]!;
    tables = await productTables(db);
    // Reset links and notices are mailed without waiting: their outbox rows belong to the call that sent them.
    mailsQueued = trackSends(app.mailer);
  });

  after(async () => {
    await app?.close();
  });

  function paramsFor(route: RouteContract): Record<string, string> {
    const byName: Record<string, string> = {
      identityName: user.userName,
      token: randomBytes(16).toString('base64url'),
      appId: relying.id,
      userId: user.id,
      applicationName: relying.name,
      // The SAML launch names the application; this one speaks OpenID Connect (a 404 page).
      application: relying.name,
      id: relying.id,
      hash: createHash('md5').update(user.email.toLowerCase()).digest('hex'),
      name: route.path.includes('/status/') ? relying.name : user.userName,
    };
    const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    for (const name of names) if (byName[name] === undefined) throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return Object.fromEntries(names.map((name) => [name, byName[name]!]));
  }

  function target(route: RouteContract): AbuseTarget {
    const t: AbuseTarget = { contract: route, params: paramsFor(route) };
    if (route.endpoint === 'profile.uploadAvatar') t.upload = { field: 'file', extension: '.png' };
    if (route.endpoint === 'profile.exerciseRights') {
      t.upload = {
        field: 'files[]',
        extension: '.png',
        fields: { email: 'ann@example.com', fullName: 'Ann Example', requestDate: '24/11/2025', requestType: 'Direct', rightsToExcercise: '["Access"]' },
      };
    }
    return t;
  }

  async function send(route: RouteContract, abuse: AbuseRequest, bearer = token): Promise<AbuseAnswer> {
    const method = abuse.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let req = request(server)[method](abuse.url).set('Accept-Language', abuse.language).set('Cookie', `XSRF-TOKEN=${xsrf}`).set('X-XSRF-TOKEN', xsrf);
    if (route.access === 'signed-in') req = req.set('Authorization', `Bearer ${bearer}`);
    for (const [name, value] of Object.entries(abuse.headers ?? {})) req = req.set(name, value);
    if (abuse.body) req = req.set('Content-Type', abuse.body.contentType).send(abuse.body.data as string);
    const res = await req;
    return { status: res.status, contentType: String(res.headers['content-type'] ?? ''), text: res.text ?? '', body: res.body as unknown };
  }

  /** The product's refusal in the caller's language: the login response on the account calls, the error answer elsewhere, a page for pages. */
  function refusalProblem(route: RouteContract, answer: AbuseAnswer, abuse: AbuseRequest): string | undefined {
    if (answer.status === 401 && route.access === 'signed-in') return 'the signed-in caller was not recognised';
    if (answer.contentType.startsWith('text/html')) return answer.text.includes('<html') ? undefined : 'the refusal page is empty';
    if (!answer.contentType.startsWith('application/json')) return `the refusal is ${answer.contentType}, not JSON`;
    const body = answer.body as { success?: unknown; code?: string; message?: string; errors?: unknown[] };
    if (route.path.startsWith('/api/v1/account/')) {
      if (body.success !== false || !Array.isArray(body.errors) || typeof body.code !== 'string') return 'the refusal is not the login response';
      const first = body.errors[0];
      return messageProblemOf(first, body.code) ?? translationProblem(context.i18n, body.code, String(first), abuse.language);
    }
    const shape = errorBodyProblem(body);
    if (shape) return shape;
    const full = body as { code: string; message: string; errors: Array<{ code: string; message: string }> };
    for (const { code, message } of [full, ...full.errors]) {
      const problem = translationProblem(context.i18n, code, message, abuse.language);
      if (problem) return problem;
    }
    return undefined;
  }

  function run(route: RouteContract): AbuseRun {
    return {
      db: context.dataSource,
      tables,
      send: (abuse) => send(route, abuse),
      quiesce: () => mailsQueued(),
      refusalProblem: (answer, abuse) => refusalProblem(route, answer, abuse),
      // A wrong password or code is counted toward the lockout and logged, wherever it is checked.
      mayWrite: (abuse, answer) => (!abuse.mustRefuse && String((answer.body as { code?: unknown }).code).startsWith('account.') ? SIGN_IN_RECORDS : []),
    };
  }

  for (const route of ROUTES) {
    it(`${route.method} ${route.path} (${route.endpoint}): never a 5xx; bad input is a 4xx in the caller's language that writes nothing`, async () => {
      await assertWithstandsAbuse(target(route), run(route), { numRuns: RUNS_PER_ROUTE });
    });
  }

  it('POST /api/v1/profile/excerciseRights: hostile fields and file names are refused or kept harmless, documents stored under their bare name', async () => {
    const route = ROUTES.find((r) => r.endpoint === 'profile.exerciseRights')!;
    const db = context.dataSource;
    const names = ['../../../../etc/passwd.png', '..\\..\\windows\\id.png', '/etc/id.png', 'C:\\Users\\ann\\passport.png', 'a\u0000b.png', '\u202egnp.exe.png', '😀.png', 'id\r\n.png'];
    const fields = fc.record({
      fullName: fc.constantFrom('Ann Example', ...HOSTILE_STRINGS, 'a\u0000b'),
      requestDetails: fc.constantFrom('', ...HOSTILE_STRINGS, 'x'.repeat(20_000), '\u0000'),
      name: fc.constantFrom(...names),
    });
    await fc.assert(
      fc.asyncProperty(fields, fc.constantFrom('en', 'fr', 'de'), async (form, language) => {
        // A user of their own each time: the hourly limit of requests is not what answers.
        const sender = await buildUser(db);
        const bearer = await portalToken(app, context, sender);
        const body = multipartBody(
          { email: 'ann@example.com', fullName: form.fullName, requestDate: '24/11/2025', requestType: 'Direct', rightsToExcercise: '["Access"]', requestDetails: form.requestDetails },
          { field: 'files[]', name: form.name, content: PNG, contentType: 'image/png' },
        );
        const abuse: AbuseRequest = { note: JSON.stringify(form), method: 'POST', url: route.path, body, language: language as AbuseRequest['language'], mustRefuse: false };
        const before = await fingerprint(db, tables);
        const answer = await send(route, abuse, bearer);
        await mailsQueued();
        const after = await fingerprint(db, tables);
        const said = `${abuse.note} answered ${answer.status} ${answer.text.slice(0, 300)}`;
        expect(answer.status, said).to.be.below(500);
        const nul = [form.fullName, form.requestDetails].some((value) => value.includes('\u0000'));
        if (nul) expect(answer.status, `a NUL is refused: ${said}`).to.be.within(400, 499);
        if (answer.status >= 400) {
          expect(refusalProblem(route, answer, abuse), said).to.equal(undefined);
          expect(changedTables(before, after), said).to.deep.equal([]);
          return;
        }
        const stored: Array<{ file_name: string }> = await db.query(
          'SELECT f.file_name FROM rights_request_files f JOIN rights_requests r ON r.id = f.rights_request_id WHERE r.user_id = $1',
          [sender.id],
        );
        expect(stored, said).to.have.length(1);
        expect(stored[0]!.file_name, 'a bare file name').to.not.match(/[/\\\u0000-\u001f\u202e]|^\.\.?$/);
      }),
      { seed: ABUSE_SEED, numRuns: 12 },
    );
  });
});
