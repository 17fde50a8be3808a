import type { ExternalApiEntry } from '@gatehouse/contracts';
import { AppError, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import type { ExternalCaller } from './caller.js';
import { insertAccessLog } from './repository.js';

/** A query value or path parameter longer than this is cut in the log row. */
const MAX_VALUE_LENGTH = 200;

/** Parameters no route takes but a caller may send by mistake: a credential is never written down. */
const CREDENTIAL = /token|secret|password|key|assertion/i;

const cut = (value: unknown): unknown => (typeof value === 'string' && value.length > MAX_VALUE_LENGTH ? `${value.slice(0, MAX_VALUE_LENGTH)}…` : value);

/** The query string and path parameters as the row keeps them: plain values, bounded, credentials masked. */
function parametersOf(values: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([name, value]) => [name, CREDENTIAL.test(name) ? '[hidden]' : Array.isArray(value) ? value.slice(0, 20).map(cut) : cut(value)]),
  );
}

/** How the call ended, for the row: the status and, for a refusal, its code and the fields it names. */
function outcomeOf(ctx: Context, error: unknown): Record<string, unknown> {
  if (error === undefined) return { status: ctx.status };
  if (!(error instanceof AppError)) return { status: 500 };
  return { status: error.status, error: error.code, ...(error.errors.length ? { fields: error.errors.map((e) => ({ field: e.field, code: e.code })) } : {}) };
}

/**
 * Runs one call of the external API and writes its External Api Access Log row once it has an
 * outcome, success or refusal alike: the address, the caller (the token's owner, else the
 * application's client id), the event, and in the metadata the application, how it authenticated,
 * the call's parameters (never a token or a secret), what the handler noted and the outcome. A
 * failure to write the row is logged and does not change the call's answer.
 */
export async function logged(context: AppContext, ctx: Context, entry: ExternalApiEntry, caller: ExternalCaller, work: () => Promise<void>): Promise<void> {
  let failure: unknown;
  try {
    await work();
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    const metadata = {
      application: caller.application.name,
      applicationId: caller.application.id,
      via: caller.kind,
      ...(caller.kind === 'personal_access_token' ? { personalAccessTokenId: caller.tokenId } : {}),
      params: parametersOf(ctx.params as Record<string, unknown> | undefined),
      query: parametersOf(ctx.query),
      ...(notesOf(ctx) ?? {}),
      ...outcomeOf(ctx, failure),
    };
    await insertAccessLog(context.dataSource, { ip: ctx.ip || null, userId: caller.userId, userName: caller.userName ?? caller.application.name, apiEntry: entry, metadata }).catch(
      (error: Error) => context.logger.error({ err: error.message, apiEntry: entry, requestId: ctx.state.requestId }, 'external API access log row not written'),
    );
  }
}

/** What the handler added to the call's row (its validated parameters, what it did). */
function notesOf(ctx: Context): Record<string, unknown> | undefined {
  return ctx.state.externalNotes as Record<string, unknown> | undefined;
}

/** Adds details to the row the call will write. */
export function note(ctx: Context, details: Record<string, unknown>): void {
  ctx.state.externalNotes = { ...notesOf(ctx), ...details };
}
