import Router from '@koa/router';
import { statusClass } from '@gatehouse/core';
import { koaScimBody, toAppError } from '@gatehouse/core/http';
import type { Context, Middleware, Next } from 'koa';
import { verifyScimToken, type ScimCaller } from './credentials.js';
import { ScimError, toScimErrorBody } from './protocol/errors.js';
import { validateFilter, type Filter } from './protocol/filter.js';
import { listResponse, parseListQuery, type ListQuery } from './protocol/list.js';
import { project } from './protocol/projection.js';
import { RESOURCE_TYPES, SCHEMAS, schemaResource, type ResourceTypeName, type ScimResource } from './protocol/schemas.js';
import { SCIM_MAX_RESULTS, ScimService, scimErrorOf } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/** Where the SCIM service lives (RFC 7644 §3.13: the version in the path). */
export const SCIM_PREFIX = '/scim/v2';

const SCIM_TYPE = 'application/scim+json; charset=utf-8';
const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SEARCH_REQUEST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

export function isScimPath(path: string): boolean {
  return path === SCIM_PREFIX || path.startsWith(`${SCIM_PREFIX}/`);
}

/** The SCIM root as clients see it (the public URL, its base path included). */
function baseUrlOf(context: AdminContext): string {
  return `${context.config.server.publicUrl.replace(/\/+$/, '')}${SCIM_PREFIX}`;
}

/**
 * Answers every error under /scim/v2 in SCIM's shape (RFC 7644 §3.12), in the caller's language
 * for the product's own refusals; an unexpected error is a 500 that reveals nothing.
 */
function scimErrors(context: AdminContext): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new ScimError(404, undefined, `no SCIM endpoint ${ctx.method} ${ctx.path}`);
      if (ctx.status === 405 && !ctx.body) throw new ScimError(405, undefined, `${ctx.method} is not supported on ${ctx.path}`);
    } catch (thrown) {
      let error = thrown;
      if (!(error instanceof ScimError)) {
        const app = toAppError(thrown, context.config.server.bodyLimit);
        if (app.status >= 500) ctx.state.log?.error({ err: thrown, requestId: ctx.state.requestId }, 'unhandled SCIM error');
        const lng = ctx.state.language as string | undefined;
        const t = (key: string, params: Record<string, unknown> = {}) => context.i18n.t(key, { lng, ...params }) as string;
        const details = app.errors.map((field) => `${field.field}: ${t(field.code, { field: field.field, ...field.params })}`);
        error = app.status >= 500 ? thrown : scimErrorOf(app, [t(app.code, app.params), ...details].join(' '));
      }
      const body = toScimErrorBody(error);
      ctx.status = Number(body.status);
      if (ctx.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="SCIM"');
      ctx.type = SCIM_TYPE;
      ctx.body = body;
    }
  };
}

/** A provisioning client's bearer token, checked before any body is read. */
function scimAuth(context: AdminContext): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new ScimError(401, undefined, 'a SCIM token is required (Authorization: Bearer …)');
    ctx.state.scim = await verifyScimToken(context, match[1]!);
    await next();
  };
}

const callerOf = (ctx: Context): ScimCaller => ctx.state.scim as ScimCaller;

/** Answers `body` as SCIM JSON with `status`, its version as ETag and its location when it has them. */
function answer(ctx: Context, body: unknown, status = 200): void {
  ctx.status = status;
  ctx.type = SCIM_TYPE;
  const meta = (body as { meta?: { version?: string; location?: string } } | undefined)?.meta;
  if (meta?.version) ctx.set('ETag', meta.version);
  if (status === 201 && meta?.location) ctx.set('Location', meta.location);
  ctx.body = body;
}

/** GET with If-None-Match naming the current version: 304 without a body. */
function answerGet(ctx: Context, resource: ScimResource, type: ResourceTypeName): void {
  const version = (resource.meta as { version?: string } | undefined)?.version;
  const ifNoneMatch = ctx.get('if-none-match');
  if (version && ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === version.replace(/^W\//, ''))) {
    ctx.status = 304;
    ctx.set('ETag', version);
    return;
  }
  answer(ctx, project(resource, type, projectionOf(ctx.query)));
}

function projectionOf(query: Record<string, unknown>): Pick<ListQuery, 'attributes' | 'excludedAttributes'> {
  const list = parseListQuery(
    Object.fromEntries(Object.entries(query).filter(([key]) => ['attributes', 'excludedattributes'].includes(key.toLowerCase()))),
    { maxCount: SCIM_MAX_RESULTS },
  );
  return { ...(list.attributes ? { attributes: list.attributes } : {}), ...(list.excludedAttributes ? { excludedAttributes: list.excludedAttributes } : {}) };
}

/** The body of a POST /.search (RFC 7644 §3.4.3) as list parameters. */
function searchQueryOf(body: unknown, resourceType?: ResourceTypeName): ListQuery {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ScimError(400, 'invalidSyntax', 'the search request is not a JSON object');
  const request = body as Record<string, unknown>;
  const schemas = request.schemas;
  if (!Array.isArray(schemas) || !schemas.some((schema) => typeof schema === 'string' && schema.toLowerCase() === SEARCH_REQUEST_SCHEMA.toLowerCase())) {
    throw new ScimError(400, 'invalidSyntax', `a search request's schemas must be ["${SEARCH_REQUEST_SCHEMA}"]`);
  }
  const { schemas: _schemas, ...rest } = request;
  const query = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value]));
  return parseListQuery(query, { maxCount: SCIM_MAX_RESULTS, ...(resourceType ? { resourceType } : {}) });
}

/** The service provider's features (RFC 7643 §5). */
function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    documentationUri: undefined,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM token',
        description: 'A token an administrator issues to an application for one area (Applications, SCIM provisioning), sent as a bearer token.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

function resourceTypeResource(type: ResourceTypeName, baseUrl: string) {
  const definition = RESOURCE_TYPES[type];
  return {
    schemas: [RESOURCE_TYPE_SCHEMA],
    ...definition,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${definition.id}` },
  };
}

/** The discovery endpoints (RFC 7644 §4): open, they describe the service only. */
function discoveryRoutes(router: Router, baseUrl: string): void {
  router.get('/ServiceProviderConfig', (ctx) => answer(ctx, serviceProviderConfig(baseUrl)));
  router.get('/ResourceTypes', (ctx) => {
    const types = (['User', 'Group'] as const).map((type) => resourceTypeResource(type, baseUrl));
    answer(ctx, listResponse(types, types.length, 1));
  });
  router.get('/ResourceTypes/:id', (ctx) => {
    const type = (['User', 'Group'] as const).find((name) => name === ctx.params.id);
    if (!type) throw new ScimError(404, undefined, `no resource type ${ctx.params.id}`);
    answer(ctx, resourceTypeResource(type, baseUrl));
  });
  router.get('/Schemas', (ctx) => {
    const schemas = SCHEMAS.map((schema) => schemaResource(schema, baseUrl));
    answer(ctx, listResponse(schemas, schemas.length, 1));
  });
  router.get('/Schemas/:id', (ctx) => {
    const schema = SCHEMAS.find((candidate) => candidate.id.toLowerCase() === ctx.params.id!.toLowerCase());
    if (!schema) throw new ScimError(404, undefined, `no schema ${ctx.params.id}`);
    answer(ctx, schemaResource(schema, baseUrl));
  });
}

interface RouteKit {
  service: ScimService;
  baseUrl: string;
  auth: Middleware;
  body: Middleware;
}

const ifMatch = (ctx: Context) => ctx.get('if-match') || undefined;

/** `/Users` or `/Groups`: list, search, create, read, replace, patch, delete. */
function resourceRoutes(router: Router, path: 'Users' | 'Groups', type: ResourceTypeName, { service, baseUrl, auth, body }: RouteKit): void {
  const isUser = type === 'User';
  const list = (caller: ScimCaller, query: ListQuery) => (isUser ? service.listUsers(caller, query, baseUrl) : service.listGroups(caller, query, baseUrl));
  router.get(`/${path}`, auth, async (ctx) => answer(ctx, await list(callerOf(ctx), parseListQuery(ctx.query, { maxCount: SCIM_MAX_RESULTS, resourceType: type }))));
  router.post(`/${path}/.search`, auth, body, async (ctx) => answer(ctx, await list(callerOf(ctx), searchQueryOf(ctx.request.body, type))));
  router.post(`/${path}`, auth, body, async (ctx) => {
    const created = isUser ? await service.createUser(callerOf(ctx), ctx.request.body, baseUrl) : await service.createGroup(callerOf(ctx), ctx.request.body, baseUrl);
    answer(ctx, project(created, type, projectionOf(ctx.query)), 201);
  });
  router.get(`/${path}/:id`, auth, async (ctx) => {
    const id = ctx.params.id!;
    const resource = isUser ? await service.getUser(callerOf(ctx), id, baseUrl) : await service.getGroup(callerOf(ctx), id, baseUrl, excludesMembers(ctx.query));
    answerGet(ctx, resource, type);
  });
  router.put(`/${path}/:id`, auth, body, async (ctx) => {
    const id = ctx.params.id!;
    const replaced = isUser
      ? await service.replaceUser(callerOf(ctx), id, ctx.request.body, ifMatch(ctx), baseUrl)
      : await service.replaceGroup(callerOf(ctx), id, ctx.request.body, ifMatch(ctx), baseUrl);
    answer(ctx, project(replaced, type, projectionOf(ctx.query)));
  });
  router.patch(`/${path}/:id`, auth, body, async (ctx) => {
    const id = ctx.params.id!;
    const patched = isUser
      ? await service.patchUser(callerOf(ctx), id, ctx.request.body, ifMatch(ctx), baseUrl)
      : await service.patchGroup(callerOf(ctx), id, ctx.request.body, ifMatch(ctx), baseUrl, !excludesMembers(ctx.query));
    answer(ctx, project(patched!, type, projectionOf(ctx.query)));
  });
  router.delete(`/${path}/:id`, auth, async (ctx) => {
    const id = ctx.params.id!;
    if (isUser) await service.deleteUser(callerOf(ctx), id, ifMatch(ctx), baseUrl);
    else await service.deleteGroup(callerOf(ctx), id, ifMatch(ctx), baseUrl);
    ctx.status = 204;
  });
}

/** A query of every resource type at the root (RFC 7644 §3.4.2, §3.4.3): each type the filter applies to, 200 of each at most. */
function rootRoutes(router: Router, { service, baseUrl, auth, body }: RouteKit): void {
  const rootQuery = async (ctx: Context, query: ListQuery) => {
    const caller = callerOf(ctx);
    const all = { ...query, startIndex: 1, count: SCIM_MAX_RESULTS };
    const results: ScimResource[] = [];
    let total = 0;
    for (const type of ['User', 'Group'] as const) {
      if (query.filter && !appliesTo(query.filter, type)) continue;
      const page = type === 'User' ? await service.listUsers(caller, all, baseUrl) : await service.listGroups(caller, all, baseUrl);
      total += page.totalResults;
      results.push(...page.Resources);
    }
    const start = query.startIndex - 1;
    answer(ctx, listResponse(results.slice(start, start + query.count), total, query.startIndex));
  };
  router.get('/', auth, async (ctx) => rootQuery(ctx, parseListQuery(ctx.query, { maxCount: SCIM_MAX_RESULTS })));
  router.post('/.search', auth, body, async (ctx) => rootQuery(ctx, searchQueryOf(ctx.request.body)));
  router.all('/Bulk', auth, () => {
    throw new ScimError(501, undefined, 'bulk operations are not supported (ServiceProviderConfig bulk.supported is false)');
  });
  router.all('/Me', auth, () => {
    throw new ScimError(501, undefined, 'a provisioning client has no /Me: it is an application');
  });
}

/**
 * `/scim/v2`: the discovery endpoints (open, they describe the service only) and the Users and
 * Groups of the token's area (RFC 7644). Bodies are `application/scim+json` (or JSON); answers
 * carry ETags and honour If-Match and If-None-Match.
 */
export function scimRouter(context: AdminContext, service = new ScimService(context)): Middleware {
  const router = new Router({ prefix: SCIM_PREFIX });
  const kit: RouteKit = { service, baseUrl: baseUrlOf(context), auth: scimAuth(context), body: koaScimBody(context) as unknown as Middleware };
  discoveryRoutes(router, kit.baseUrl);
  resourceRoutes(router, 'Users', 'User', kit);
  resourceRoutes(router, 'Groups', 'Group', kit);
  rootRoutes(router, kit);
  const routes = router.routes() as unknown as Middleware;
  const methods = router.allowedMethods() as unknown as Middleware;
  const errors = scimErrors(context);
  const requests = context.metrics.scimRequests;
  return async (ctx: Context, next: Next) => {
    if (!isScimPath(ctx.path)) return next();
    // Every error is answered by `errors`: the status is final here.
    await errors(ctx, () => routes(ctx, () => methods(ctx, async () => undefined)));
    requests.inc({ resource: resourceOf(ctx.path), status_class: statusClass(ctx.status) });
  };
}

const RESOURCES = new Set(['Users', 'Groups', 'ServiceProviderConfig', 'ResourceTypes', 'Schemas', 'Bulk', 'Me', '.search']);

/** The resource type a SCIM path addresses (`Users`, `Groups`, a discovery endpoint, `root`), from a closed set. */
function resourceOf(path: string): string {
  const first = path.slice(SCIM_PREFIX.length).split('/')[1] ?? '';
  if (first === '') return 'root';
  return RESOURCES.has(first) ? (first === '.search' ? 'root' : first) : 'other';
}

function excludesMembers(query: Record<string, unknown>): boolean {
  const projection = projectionOf(query);
  const named = (list?: string[]) => list?.some((name) => /(^|:)members(\.|$)/i.test(name));
  return projection.attributes ? !named(projection.attributes) : !!named(projection.excludedAttributes);
}

/** Whether a filter can be asked of a resource type (every attribute it names is one of the type's). */
function appliesTo(filter: Filter, type: ResourceTypeName): boolean {
  try {
    validateFilter(filter, type);
    return true;
  } catch (error) {
    if (error instanceof ScimError) return false;
    throw error;
  }
}
