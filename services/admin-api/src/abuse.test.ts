import { randomBytes, randomUUID } from 'node:crypto';
import { ALL_ROUTES, GLOBAL_TENANT_ID, pathOf as pathOfRoute, type RouteContract } from '@gatehouse/contracts';
import type { User } from '@gatehouse/core';
import { contractOf } from '@gatehouse/core/http';
import {
  assertWithstandsAbuse,
  buildApplication,
  buildGroup,
  buildTenant,
  errorBodyProblem,
  baselineQuery,
  grant,
  jsonSchemaOf,
  productTables,
  trackSends,
  translationProblem,
  type AbuseAnswer,
  type AbuseRequest,
  type AbuseRun,
  type AbuseTarget,
} from '@gatehouse/core/testing';
import type Router from '@koa/router';
import { expect } from 'chai';
import request from 'supertest';
import { z } from 'zod';
import { accountRouter, adminRouter, isAdminApiPath, isExternalApiPath } from './app.js';
import { externalRouter } from './features/external/router.js';
import { jobsViewPageRoutes } from './features/jobs-view/router.js';
import { makeRequestable, waitingRequest } from './features/operation-requests/testing.js';
import type { BackgroundJobs } from './features/jobs/runtime.js';
import { buildAdminWorld, userIn, type AdminWorld, type Application } from './testing/admin-world.js';
import { finishedJob, startTestJobs } from './testing/jobs.js';
import { mintAccessToken } from './testing/tokens.js';

/** Generated requests per route: enough for every kind of abuse to come up, few enough for minutes. */
const RUNS_PER_ROUTE = 10;

/** The routes the administration service serves: the admin API, the lock calls, the keys, My Clients' uploads, the external API. */
const ROUTES = ALL_ROUTES.filter((route) => isAdminApiPath(route.path) || isExternalApiPath(route.path));

/** What the generated calls point at: records that exist, so that handlers run past their lookups. */
interface Fixtures {
  caller: User;
  user: User;
  app: Application;
  roleId: string;
  scopeId: string;
  groupId: string;
  tenantId: string;
  childTenantId: string;
  operationRequestId: string;
  rightsRequestId: string;
  rightsFileId: string;
  notificationId: string;
  patId: string;
  webhookId: string;
  webhookDeliveryId: string;
}

/** A body field's record, by the field's name: ids of fixtures rather than ids of nothing. */
function fixtureFor(name: string, f: Fixtures, w: AdminWorld): unknown {
  switch (name) {
    case 'areaId':
      return w.areaA.id;
    case 'tenantId':
    case 'parentId':
    case 'newParentId':
      return f.childTenantId;
    case 'userId':
    case 'identityId':
      return f.user.id;
    case 'groupId':
      return f.groupId;
    case 'roleIds':
    case 'roles':
      return [f.roleId];
    case 'applicationIds':
      return [f.app.id];
    case 'ids':
      return [f.operationRequestId];
    case 'applicationName':
      return w.identity.name;
    default:
      return undefined;
  }
}

/** Path parameters of existing records; a DELETE gets ids of nothing, so that the fixtures outlive it. */
function paramsFor(route: RouteContract, f: Fixtures): Record<string, string> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params: Record<string, string> = {};
  for (const name of names) {
    const value = route.method === 'DELETE' && name !== 'status' && name !== 'role' ? randomUUID() : paramFor(route.path, name, f);
    if (value === undefined) throw new Error(`${route.method} ${route.path}: no record for :${name}; add it to paramFor`);
    params[name] = value;
  }
  return params;
}

function paramFor(path: string, name: string, f: Fixtures): string | undefined {
  const byName: Record<string, string> = {
    userId: f.user.id,
    groupId: f.groupId,
    tenantId: f.tenantId,
    appId: f.app.id,
    applicationId: f.app.id,
    roleId: f.roleId,
    scopeId: f.scopeId,
    fileId: f.rightsFileId,
    deliveryId: f.webhookDeliveryId,
    // Any id: no SCIM token has it (a 404 in the caller's language).
    tokenId: f.webhookId,
    status: 'Maintenance',
    role: 'Reader',
  };
  if (name !== 'id') return byName[name];
  const byPath: Array<[RegExp, string]> = [
    [/\/(users|clients\/:tenantId\/users)\/(check\/permissions\/|inviteUser\/)?:id/, f.user.id],
    [/\/account\/(un)?lock\/:id|\/identifyAs\/:id/, f.user.id],
    [/\/groups\/:id/, f.groupId],
    [/\/tenants\/(twoModeAuth\/)?:id/, f.tenantId],
    [/\/applications\/(icon\/)?:id/, f.app.id],
    [/\/rightsRequests\/:id/, f.rightsRequestId],
    [/\/operationRequests\/.*:id/, f.operationRequestId],
    [/\/notifications\/:id/, f.notificationId],
    [/\/keys\/:id/, f.patId],
    [/\/securityConfig\/:id/, 'Lockout'],
    [/\/webhooks\/:id/, f.webhookId],
  ];
  return byPath.find(([pattern]) => pattern.test(path))?.[1];
}

/** Searches that mean something to SQL or to LIKE, and that no record of the world holds. */
const LITERAL_SEARCHES = ['%', '_', '%%', '%_%', '\\', '\\%', "'", "''", "' OR '1'='1", "'; DROP TABLE users; --", '"', "%' OR '%'='", '[a-z]', '*', '$1', ':name'];

/** The route's search parameters: the spec's `$search`, and `searchQuery` where the portal sends that. */
function searchParameters(route: RouteContract): string[] {
  if (route.method !== 'GET' || !route.query || !answersAList(route)) return [];
  const names = Object.keys(jsonSchemaOf(route.query).properties ?? {});
  return names.filter((name) => name === '$search' || name === 'searchQuery');
}

/** Whether the route answers the records it found (an export answers a job instead). */
function answersAList(route: RouteContract): boolean {
  if (!route.response) return false;
  const schema = z.toJSONSchema(route.response, { io: 'output', unrepresentable: 'any' }) as { type?: string; properties?: Record<string, unknown> };
  return schema.type === 'array' || schema.properties?.items !== undefined;
}

/** What a search needs besides its text: the external API searches its flat view of tenants only. */
function searchBaseline(route: RouteContract): Record<string, string> {
  return route.endpoint === 'external.GetEntities' ? { view: 'flat' } : {};
}

/** How many records an answer found: its `count`, or the length of its list. */
function foundCount(body: unknown): number | undefined {
  if (Array.isArray(body)) return body.length;
  const b = body as { count?: unknown; items?: unknown } | undefined;
  if (typeof b?.count === 'number') return b.count;
  if (Array.isArray(b?.items)) return b.items.length;
  return undefined;
}

/** The bound contracts of a router's layers. */
function boundContracts(router: Router): RouteContract[] {
  return router.stack.flatMap((layer) => layer.stack.map(contractOf).filter((c): c is RouteContract => c !== undefined));
}

describe('admin API abuse: generated bad input on every route', function () {
  this.timeout(1_200_000);
  let w: AdminWorld;
  let f: Fixtures;
  let jobs: BackgroundJobs;
  let tables: string[];
  let godToken: string;
  let appToken: string;
  let mailsQueued: () => Promise<void>;

  before(async () => {
    w = await buildAdminWorld();
    const db = w.context.dataSource;
    // Uploads and reports queue jobs, as the product runs them; each success waits for its job (afterSuccess).
    jobs = await startTestJobs(w.context);
    const caller = w.callers.god;
    // God and Administrator both, so that no role rule is what refuses.
    await db.query(
      `INSERT INTO tenant_member_roles (tenant_member_id, role_id) SELECT id, $3 FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`,
      [GLOBAL_TENANT_ID, caller.id, w.identity.roleByName.Administrator!.id],
    );
    const app = await buildApplication(db, { id: `abuse-${randomBytes(4).toString('hex')}`, clientType: 'confidential', grantTypes: ['client_credentials'], redirectUris: ['https://abuse.example.com/cb'], roles: ['Reader', 'Writer'] });
    await db.query('INSERT INTO application_owners (application_id, user_id) VALUES ($1, $2)', [app.id, caller.id]);
    await makeRequestable(w.context, [app.roleByName.Reader!.id]);
    const [scope] = await db.query(`INSERT INTO role_scopes (role_id, scope) VALUES ($1, 'orders.read') RETURNING id`, [app.roleByName.Reader!.id]);
    const child = await buildTenant(db, { areaId: w.areaA.id, parentId: w.tenantA.id });
    const user = await userIn(w, w.areaA, { firstName: 'Target', lastName: 'User' });
    await grant(db, { tenant: w.tenantA, user, roles: [app.roleByName.Reader!] });
    const group = await buildGroup(db, { areaId: w.areaA.id });
    await db.query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, 'Owner')`, [group.id, caller.id]);
    const operationRequestId = await waitingRequest(w.context, { tenantId: w.tenantA.id, userId: (await userIn(w, w.areaA)).id, roleIds: [app.roleByName.Reader!.id], createdById: caller.id });
    const [rights] = await db.query(
      `INSERT INTO rights_requests (request_date, full_name, email, request_type, rights) VALUES ('2025-11-24', 'Ann Example', 'ann@example.com', 'Direct', '{Access}') RETURNING id`,
    );
    const [file] = await db.query(
      `INSERT INTO rights_request_files (rights_request_id, file_name, content_type, size, content) VALUES ($1, 'id.pdf', 'application/pdf', 4, $2) RETURNING id`,
      [rights.id, Buffer.from('%PDF')],
    );
    const [notification] = await db.query(`INSERT INTO notifications (user_id, type, description) VALUES ($1, 'PermissionAssigned', 'A') RETURNING id`, [caller.id]);
    const [pat] = await db.query(
      `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix) VALUES ('abuse', $1, $2, $3, 'gpat_') RETURNING id`,
      [caller.id, w.identity.id, randomBytes(32).toString('hex')],
    );
    const [webhook] = await db.query(`INSERT INTO webhook_endpoints (url, events, secret_encrypted) VALUES ('https://hooks.example.com/in', '{user.created}', $1) RETURNING id`, [
      w.context.secrets.encrypt(`whsec_${randomBytes(32).toString('base64')}`),
    ]);
    const [delivery] = await db.query(
      `WITH ev AS (INSERT INTO webhook_events (type, payload) VALUES ('user.created', '{"type":"user.created","data":{}}') RETURNING id)
       INSERT INTO webhook_deliveries (endpoint_id, event_id, status) SELECT $1, ev.id, 'Failed' FROM ev RETURNING id`,
      [webhook.id],
    );
    f = {
      caller,
      user,
      app,
      roleId: app.roleByName.Reader!.id,
      scopeId: scope.id,
      groupId: group.id,
      tenantId: w.tenantA.id,
      childTenantId: child.id,
      operationRequestId,
      rightsRequestId: rights.id,
      rightsFileId: file.id,
      notificationId: notification.id,
      patId: pat.id,
      webhookId: webhook.id,
      webhookDeliveryId: delivery.id,
    };
    godToken = await mintAccessToken(w.context, w.key, { sub: caller.id, roles: ['God', 'Administrator'], expiresIn: 3600 });
    appToken = await mintAccessToken(w.context, w.key, {
      audience: w.context.config.oidc.externalApiAudience,
      sub: app.name,
      clientId: app.name,
      scope: 'external',
      claims: { roles: undefined },
      expiresIn: 3600,
    });
    tables = await productTables(db);
    // Some notices are mailed without waiting: their outbox rows belong to the call that sent them.
    mailsQueued = trackSends(w.context.mailer);
  });

  after(async () => {
    await jobs?.stop();
  });

  const call = (path: string) => request(w.server).get(`/api/v1/admin${path}`).set('Authorization', `Bearer ${godToken}`).set('Accept-Language', 'en');

  /** The tables a refusal may write by design: the external API logs every call, refused or not. */
  const mayWrite = (route: RouteContract) => (route.access === 'application' ? ['external_api_access_logs'] : []);

  function run(route: RouteContract): AbuseRun {
    return {
      db: w.context.dataSource,
      tables,
      mayWrite: () => mayWrite(route),
      // A delivery sent again is attempted after the answer: its attempt belongs to that call.
      quiesce: async () => {
        await mailsQueued();
        await w.context.webhooks.deliverer?.idle();
      },
      send: async (abuse: AbuseRequest): Promise<AbuseAnswer> => {
        const method = abuse.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        let req = request(w.server)[method](abuse.url).set('Accept-Language', abuse.language);
        if (route.access === 'application') req = req.set('Authorization', `Bearer ${appToken}`);
        else if (route.access !== 'page-session') req = req.set('Authorization', `Bearer ${godToken}`);
        for (const [name, value] of Object.entries(abuse.headers ?? {})) req = req.set(name, value);
        if (abuse.body) req = req.set('Content-Type', abuse.body.contentType).send(abuse.body.data as string);
        const res = await req;
        return { status: res.status, contentType: String(res.headers['content-type'] ?? ''), text: res.text ?? '', body: res.body as unknown };
      },
      refusalProblem: (answer, abuse) => refusalProblem(route, answer, abuse),
      afterSuccess: async (answer) => {
        const jobId = (answer.body as { jobId?: unknown } | undefined)?.jobId;
        if (typeof jobId === 'string') await finishedJob(w.context, jobId);
      },
    };
  }

  /** The product's error answer in the caller's language; a page's refusal is a page. */
  function refusalProblem(route: RouteContract, answer: AbuseAnswer, abuse: AbuseRequest): string | undefined {
    if (answer.status === 401 && route.access !== 'page-session') return 'the caller was not recognised';
    if (route.produces === 'text/html' && answer.contentType.startsWith('text/html')) return answer.text.includes('<html') ? undefined : 'the refusal page is empty';
    if (!answer.contentType.startsWith('application/json')) return `the refusal is ${answer.contentType}, not JSON`;
    const shape = errorBodyProblem(answer.body);
    if (shape) return shape;
    const body = answer.body as { code: string; message: string; errors: Array<{ code: string; message: string }> };
    for (const { code, message } of [body, ...body.errors]) {
      const problem = translationProblem(w.context.i18n, code, message, abuse.language);
      if (problem) return problem;
    }
    return undefined;
  }

  /** A valid body of the route's schema, on the fixtures. */
  function target(route: RouteContract): AbuseTarget {
    const t: AbuseTarget = { contract: route, params: paramsFor(route, f), fill: (field) => fixtureFor(field, f, w) };
    if (route.consumes) t.upload = { field: 'file', extension: '.xlsx' };
    return t;
  }

  it('abuses every route the service binds, and binds every route declared under its paths', () => {
    const bound = [adminRouter(w.context), accountRouter(w.context), externalRouter(w.context), jobsViewPageRoutes(w.context)].flatMap(boundContracts);
    const key = (route: RouteContract) => `${route.method} ${route.path}`;
    expect(bound.map(key).sort()).to.deep.equal(ROUTES.map(key).sort());
  });

  // Before any generated call stores text with metacharacters: until then no record holds one, so a literal search finds nothing.
  describe('a search with SQL or LIKE metacharacters is a literal search', () => {
    const searches = ROUTES.flatMap((route) => searchParameters(route).map((parameter) => ({ route, parameter })));

    it('is checked on every route that searches', () => {
      expect(searches.map(({ route }) => route.endpoint)).to.include.members(['users.list', 'groups.list', 'tenants.list', 'keys.list', 'logs.system']);
    });

    for (const { route, parameter } of searches) {
      it(`${route.method} ${route.path} (${route.endpoint}): ?${parameter}= finds nothing for metacharacters no record holds`, async () => {
        const failures: string[] = [];
        for (const text of LITERAL_SEARCHES) {
          const query = new URLSearchParams({ ...baselineQuery({ contract: route, query: searchBaseline(route), fill: (field) => fixtureFor(field, f, w) }), [parameter]: text });
          const res = await request(w.server)
            .get(`${pathOfRoute(route, paramsFor(route, f))}?${query}`)
            .set('Authorization', `Bearer ${route.access === 'application' ? appToken : godToken}`)
            .set('Accept-Language', 'en');
          const found = res.status === 200 ? foundCount(res.body) : undefined;
          if (res.status !== 200 || found !== 0) failures.push(`${JSON.stringify(text)}: ${res.status} ${found ?? ''} ${JSON.stringify(res.body).slice(0, 200)}`);
        }
        expect(failures).to.deep.equal([]);
      });
    }

    it('finds a name with a quote and a percent sign exactly, and takes _ for itself, not for any character', async () => {
      const db = w.context.dataSource;
      const marker = randomBytes(3).toString('hex');
      const quoted = await userIn(w, w.areaA, { lastName: `O'Brien-${marker}-50%` });
      const group = await buildGroup(db, { areaId: w.areaA.id, name: `Sales 50%-${marker} 'north'` });
      const tenant = await buildTenant(db, { areaId: w.areaA.id, title: `Acme "${marker}" 50%-off` });
      const cases: Array<[string, string, string]> = [
        ['/users', `O'Brien-${marker}-50%`, quoted.id],
        ['/groups', `50%-${marker} 'north'`, group.id],
        ['/tenants', `"${marker}" 50%-off`, tenant.id],
      ];
      for (const [path, text, id] of cases) {
        const exact = await call(`${path}?${new URLSearchParams({ $search: text })}`);
        expect(exact.status, path).to.equal(200);
        expect(exact.body.items.map((item: { id: string }) => item.id), `${path} ${text}`).to.deep.equal([id]);
        // The same text with _ where the record has -: found only if _ matched any character.
        const underscore = await call(`${path}?${new URLSearchParams({ $search: text.replace('-', '_') })}`);
        expect(underscore.body.count, `${path} ${text.replace('-', '_')}`).to.equal(0);
      }
    });
  });

  // Mocha runs a suite's own tests before its child suites: the searches above are a child suite, and come first.
  describe('generated calls', () => {
    for (const route of ROUTES) {
      it(`${route.method} ${route.path} (${route.endpoint}): never a 5xx; bad input is a 4xx in the caller's language that writes nothing`, async () => {
        await assertWithstandsAbuse(target(route), run(route), { numRuns: RUNS_PER_ROUTE });
      });
    }
  });

});
