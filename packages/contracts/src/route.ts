import type { ErrorCode } from './errors.js';
import type { z } from 'zod';

export type SuccessStatus = 200 | 201 | 202 | 204 | 302;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A zod object schema for path parameters or a query string. */
type ObjectSchema = z.ZodObject<z.ZodRawShape> | z.ZodPipe<z.ZodObject<z.ZodRawShape>, z.ZodType>;

/**
 * One API route, declared once: the server binds a handler to it (validating what comes in and
 * what goes out), the OpenAPI document is generated from it, and the SPAs take their types from it.
 */
export interface RouteContract {
  method: HttpMethod;
  /** The full path, with `:name` parameters, e.g. `/api/v1/admin/users/:id`. */
  path: string;
  /**
   * The route's name: for the administration API its entry in the roles table (ENDPOINT_ROLES);
   * elsewhere a stable operation name such as `account.login`.
   */
  endpoint: string;
  /**
   * The operation's id in the API document, where `endpoint` does not say it alone: two routes
   * under one entry of the roles table.
   */
  operationId?: string;
  /** One line for the API document. */
  summary: string;
  /**
   * Who may call it, for the document: `public`, `signed-in` or `roles` (the roles table), with a
   * bearer token; `page-session`: a page a browser navigates to, on a cookie session of its own
   * ({@link PAGE_SESSION_COOKIE}) opened by a one-time code that a `roles` route handed out, never
   * a bearer token; `application`: a business application calling the external API, with its
   * client-credentials token for that API or a personal access token issued for it.
   */
  access: 'public' | 'signed-in' | 'roles' | 'page-session' | 'application';
  params?: ObjectSchema;
  query?: ObjectSchema;
  /** Request headers the route reads (an idempotency key), validated like the query. */
  headers?: ObjectSchema;
  body?: z.ZodType;
  /**
   * The spec's own message (an error code) for a body field that is missing or blank, in place of
   * the generic "required", whatever check zod reports first for it.
   */
  required?: Readonly<Record<string, ErrorCode>>;
  /** The JSON response body. Absent: no body (204), or `produces` names what the handler writes. */
  response?: z.ZodType;
  /** 200 unless said otherwise. */
  status?: SuccessStatus;
  /** Another success status the handler may answer instead, by its outcome (`withStatus`). */
  alternativeStatus?: SuccessStatus;
  /** A non-JSON answer the handler writes itself (a spreadsheet, an image, a redirect). */
  produces?: string;
  /** A non-JSON request body the handler reads itself (an uploaded spreadsheet). */
  consumes?: string;
  /** The refusals the route answers besides the usual ones, by status, for the API document. */
  errors?: Readonly<Partial<Record<400 | 403 | 404 | 409 | 422 | 429 | 503, string>>>;
  /** Examples for the API document: path and query parameters, the body and the success answer. */
  examples?: {
    params?: Readonly<Record<string, unknown>>;
    query?: Readonly<Record<string, unknown>>;
    headers?: Readonly<Record<string, unknown>>;
    body?: unknown;
    response?: unknown;
  };
}

/**
 * The cookie of a `page-session` route: HttpOnly, SameSite=Strict, limited to the page's path, and
 * `__Secure-` prefixed when the product is served over https.
 */
export const PAGE_SESSION_COOKIE = 'gatehouse-page-session';

/** Declares a route; the literal types are kept, so `ResponseOf<typeof route>` is exact. */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What the route answers, as the browser receives it. */
export type ResponseOf<C extends RouteContract> = Out<C['response']>;
/** What the route accepts as its body, as the browser sends it. */
export type BodyOf<C extends RouteContract> = In<C['body']>;
/** The route's query string, as the browser sends it. */
export type QueryOf<C extends RouteContract> = In<C['query']>;
/** The route's path parameters. */
export type ParamsOf<C extends RouteContract> = In<C['params']>;

/** Fills a route's `:name` parameters: `pathOf(route, { id: '42' })`. */
export function pathOf(contract: Pick<RouteContract, 'path'>, params: Record<string, string | number> = {}): string {
  return contract.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${contract.path}: missing parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
