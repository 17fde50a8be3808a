import { AsyncResource } from 'node:async_hooks';
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import pg from 'pg';
import { activeTracer } from './tracing.js';

/** Longest statement text kept on a span (a migration's DDL can run to pages). */
const MAX_QUERY_TEXT = 4000;

type AnyQuery = (...args: unknown[]) => unknown;
type ClientClass = new (config?: string | pg.ClientConfig) => pg.Client;

/** Leading blanks and `--` comments, before the first keyword. */
const LEADING = /^\s*(?:--[^\n]*\n\s*)*/;
/** The first keyword: SELECT, INSERT, UPDATE, DELETE, WITH, BEGIN… */
const OPERATION = /^[A-Za-z]+/;
const NAME = String.raw`("?[A-Za-z_][\w$]*"?(?:\."?[A-Za-z_][\w$]*"?)?)`;
/** Where the one table of a plain statement is named. */
const TARGETS: Record<string, RegExp> = {
  INSERT: new RegExp(String.raw`^INSERT\s+INTO\s+${NAME}`, 'i'),
  UPDATE: new RegExp(String.raw`^UPDATE\s+(?:ONLY\s+)?${NAME}`, 'i'),
  DELETE: new RegExp(String.raw`^DELETE\s+FROM\s+(?:ONLY\s+)?${NAME}`, 'i'),
  // Not a function (`FROM unnest(…)`).
  SELECT: new RegExp(String.raw`\bFROM\s+(?:ONLY\s+)?${NAME}(?![\w$".(])`, 'i'),
};
const FROM = /\bFROM\b/gi;
const JOIN = /\bJOIN\b/i;

/**
 * The table a statement works on, when it is plainly one: an insert, update or delete's target, a
 * select's single FROM without joins. None otherwise (OpenTelemetry's conventions: rather none than
 * a guess).
 */
function tableOf(operation: string, body: string): string | undefined {
  const target = TARGETS[operation];
  if (!target) return undefined;
  if (operation === 'SELECT' && ((body.match(FROM)?.length ?? 0) !== 1 || JOIN.test(body))) return undefined;
  return target.exec(body)?.[1]?.replaceAll('"', '');
}
/** Literal values written into the text; `$n` placeholders carry the others, which never reach a span. */
const LITERALS = /'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b/g;
const PLACEHOLDER = /\$\d/;

/**
 * What a span says of a statement: its operation, its table and its text. Values are never
 * recorded: the parameters not at all, and a statement written without placeholders has its
 * literals replaced by `?` (OpenTelemetry's database conventions).
 */
export function statementAttributes(text: string): { name: string; attributes: Attributes } {
  const body = text.replace(LEADING, '');
  const operation = OPERATION.exec(body)?.[0]?.toUpperCase() ?? 'QUERY';
  const table = tableOf(operation, body);
  const shown = PLACEHOLDER.test(text) ? text : text.replace(LITERALS, '?');
  const attributes: Attributes = {
    [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
    [ATTR_DB_OPERATION_NAME]: operation,
    [ATTR_DB_QUERY_TEXT]: shown.length > MAX_QUERY_TEXT ? `${shown.slice(0, MAX_QUERY_TEXT)}…` : shown,
  };
  if (table) attributes[ATTR_DB_COLLECTION_NAME] = table;
  return { name: table ? `${operation} ${table}` : operation, attributes };
}

/** The statement's text, or undefined for what is not a plain statement (a cursor, a stream). */
function textOf(first: unknown): string | undefined {
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object' && typeof (first as { submit?: unknown }).submit !== 'function') {
    const text = (first as { text?: unknown }).text;
    if (typeof text === 'string') return text;
  }
  return undefined;
}

/** Ends a statement's span; a failure is told by its SQLSTATE, never by its message (which may quote a value). */
function endStatement(span: Span, error: unknown): void {
  if (error) {
    const code = (error as { code?: unknown }).code;
    const type = typeof code === 'string' ? code : error instanceof Error ? error.constructor.name : 'Error';
    if (typeof code === 'string') span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, code);
    span.setAttribute(ATTR_ERROR_TYPE, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === 'string' ? `SQLSTATE ${code}` : type });
  }
  span.end();
}

/**
 * One span per statement a client runs, under the span current when the statement was issued. A
 * statement outside any traced work (a queue's polling, a periodic sweep) makes none: each would be
 * a trace of its own, several a second, saying nothing about a request.
 */
function tracedQuery(client: pg.Client, query: AnyQuery, args: unknown[]): unknown {
  const tracer = activeTracer();
  const parent = tracer && context.active();
  const text = parent && trace.getSpan(parent) ? textOf(args[0]) : undefined;
  if (!tracer || text === undefined) return query(...args);
  const { name, attributes } = statementAttributes(text);
  attributes[ATTR_SERVER_ADDRESS] = client.host;
  attributes[ATTR_SERVER_PORT] = client.port;
  if (client.database) attributes[ATTR_DB_NAMESPACE] = client.database;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
  const callback = args.at(-1);
  if (typeof callback === 'function') {
    return query(...args.slice(0, -1), (error: unknown, result: unknown) => {
      endStatement(span, error);
      (callback as (error: unknown, result: unknown) => void)(error, result);
    });
  }
  let result: unknown;
  try {
    result = query(...args);
  } catch (error) {
    endStatement(span, error);
    throw error;
  }
  if (result instanceof Promise) result.then(() => endStatement(span, undefined), (error: unknown) => endStatement(span, error));
  else endStatement(span, undefined);
  return result;
}

/** `Base` whose statements are traced (its own `query`, set on the instance or inherited, is kept). */
function tracedClient(Base: ClientClass): ClientClass {
  return class TracedClient extends Base {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const query = this.query.bind(this) as AnyQuery;
      (this as unknown as { query: AnyQuery }).query = (...args) => tracedQuery(this, query, args);
    }
  };
}

/**
 * A pool of traced clients. A caller waiting for a connection is handed it from whichever request
 * released one: its callback is bound to the caller's own context, so its statements' spans land
 * under the caller's span, not under the releasing request's.
 */
class TracedPool extends pg.Pool {
  constructor(options?: pg.PoolConfig & { Client?: ClientClass }) {
    super({ ...options, Client: tracedClient(options?.Client ?? pg.Client) } as pg.PoolConfig);
  }

  override connect(...args: unknown[]): never {
    const [callback] = args;
    const connect = super.connect.bind(this) as AnyQuery;
    return (typeof callback === 'function' ? connect(AsyncResource.bind(callback as AnyQuery)) : connect()) as never;
  }
}

/**
 * The `pg` module TypeORM is given (its `driver` option): `pg` itself while tracing is off, else
 * `pg` with a pool whose every statement (TypeORM's, the plain SQL client's, pg-boss's) makes a
 * span. Read when the data source is made, after tracing has started.
 */
export function pgDriver(): typeof pg {
  if (!activeTracer()) return pg;
  return Object.create(pg, { Pool: { value: TracedPool, enumerable: true } }) as typeof pg;
}
