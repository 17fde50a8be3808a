import type { Server as HttpServer } from 'node:http';
import type { AppContext, Logger } from '@gatehouse/core';
import { DPoPError, basePathOf } from '@gatehouse/core/http';
import { NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH } from '@gatehouse/contracts';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import { Server, type Socket } from 'socket.io';
import { InvalidTokenError } from '../../auth/access-token.js';
import { accessTokenBearer } from '../../auth/koa-admin-auth.js';
import { registerHub } from './notify.js';
import type { AdminContext } from '../../admin-context.js';

/** What the server keeps on each accepted socket. */
interface SocketData {
  userId: string;
  /** The impersonation its token was issued in, when a God user is signed in as the user (Identify As). */
  impersonationId?: string;
}

type HubServer = Server<Record<string, never>, Record<string, (payload: unknown) => void>, Record<string, never>, SocketData>;
type HubSocket = Socket<Record<string, never>, Record<string, (payload: unknown) => void>, Record<string, never>, SocketData>;

/** The room of one user's sockets, on every node. */
const roomOf = (userId: string) => `user:${userId}`;
/** The room of the sockets opened under one impersonation (Identify As). */
const impersonationRoomOf = (impersonationId: string) => `impersonation:${impersonationId}`;

/** A console sends nothing but its handshake (a token of a few kilobytes). */
const MAX_MESSAGE_BYTES = 16 * 1024;
/** A connection that has not sent its handshake by then is dropped. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** setTimeout's longest delay; a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How many impersonations heard to end a node remembers, for the handshakes that raced their end. */
const ENDED_IMPERSONATIONS_KEPT = 1000;

export interface NotificationHub {
  /** The socket.io server (tests look at its sockets). */
  readonly io: HubServer;
  /** Disconnects this node's sockets and stops listening, leaving the http server to its owner. */
  close(): Promise<void>;
}

/** Refusals carry the admin API's code; the reason stays in the log. */
function refusal(code: 'errors.unauthorized' | 'errors.service_unavailable'): Error {
  return Object.assign(new Error(code === 'errors.unauthorized' ? 'unauthorized' : 'unavailable'), { data: { code } });
}

/**
 * Redis commands answer promises that the adapter does not always wait for (its subscriptions, its
 * publishes): with Redis out of reach they would reject unhandled and end the process. This view of
 * the client logs such failures instead; whoever awaits a result still sees the error.
 */
function quietRedis(client: Redis, logger: Logger): Redis {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) result.catch((error: Error) => logger.warn({ err: error.message, command: String(property) }, 'notification hub: redis command failed'));
        return result;
      };
    },
  });
}

/** Spreads the rooms over every node through Redis; answers the clients to close with the hub. */
async function useRedisAdapter(context: AppContext, io: HubServer, redis: Redis): Promise<Redis[]> {
  const { logger } = context;
  const pub = redis.duplicate();
  const sub = redis.duplicate();
  for (const client of [pub, sub]) client.on('error', (error: Error) => logger.warn({ err: error.message }, 'notification hub: redis error'));
  io.adapter(createAdapter(quietRedis(pub, logger), quietRedis(sub, logger), { key: `${context.config.redis.keyPrefix}:${context.config.server.publicUrl}:notifications` }));
  // Commands run in order: once this answers, the adapter's subscriptions are in place and
  // other nodes' emits reach this one. Without Redis the node still serves its own sockets.
  await sub.ping().catch((error: Error) => logger.warn({ err: error.message }, 'notification hub: redis unavailable at start'));
  return [pub, sub];
}

/** Drops the socket when its token expires: a token is good for as long as it lives, no longer. */
function expireWithToken(socket: HubSocket, token: string): void {
  const { exp } = decodeJwt(token);
  if (typeof exp !== 'number') return;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = exp * 1000 - Date.now();
    if (left <= 0) return void socket.disconnect(true);
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  socket.once('disconnect', () => clearTimeout(timer));
}

/**
 * The handshake check: the console's access token from `auth.token`, verified as the admin API
 * verifies it, of an account still active, and when it was issued while a God user was signed in
 * as the account, in an impersonation still current. A browser cannot set headers on a websocket:
 * a DPoP-bound token comes with its proof in `auth.dpop`, made for `GET` at the address of the
 * handshake request (the hub's path with its trailing slash, as socket.io requests it, without the
 * query); a token bound to nothing comes without one. The socket remembers whose it is, and that
 * impersonation.
 */
function authenticator(context: AdminContext) {
  const bearer = accessTokenBearer(context.accessTokens);
  const accounts = context.accountStates;
  return async (socket: HubSocket): Promise<void> => {
    const { token, dpop } = (socket.handshake.auth ?? {}) as Record<string, unknown>;
    try {
      const caller = typeof token === 'string' && token ? await bearer.verify(token) : null;
      if (!caller) throw new InvalidTokenError('malformed');
      if (dpop !== undefined && typeof dpop !== 'string') throw new InvalidTokenError('malformed');
      const proofs = context.dpop.requestOf(socket.request, dpop ? [dpop] : []);
      await context.dpop.check(proofs, { scheme: dpop ? 'DPoP' : 'Bearer', token: token as string }, caller.jkt);
      if (!(await accounts.isActive(caller.userId))) throw new InvalidTokenError('claims');
      const { actorId, impersonationId } = caller;
      if (actorId && !(await accounts.isActing({ actorId, impersonationId }, caller.userId))) throw new InvalidTokenError('claims');
      socket.data.userId = caller.userId;
      socket.data.impersonationId = impersonationId;
      expireWithToken(socket, token as string);
    } catch (error) {
      if (error instanceof InvalidTokenError || error instanceof DPoPError) {
        context.logger.debug({ reason: error.reason }, 'notification hub: connection refused');
        throw refusal('errors.unauthorized');
      }
      context.logger.warn({ err: (error as Error).message }, 'notification hub: connection check failed');
      throw refusal('errors.service_unavailable');
    }
  };
}

/**
 * A locked, draft or deleted account loses its open sockets: every node hears `user.changed` and
 * drops its own. Answers the function that stops listening.
 */
function dropInactiveAccounts(context: AdminContext, io: HubServer): () => void {
  // The account cache listens first (it exists already), so it is cleared before this rereads it.
  const accounts = context.accountStates;
  const recheck = async (userId: string | undefined) => {
    const sockets = await io.local.fetchSockets();
    const users = new Set(sockets.map((socket) => socket.data.userId).filter((id) => !userId || id === userId));
    for (const user of users) {
      if (!(await accounts.isActive(user))) io.local.in(roomOf(user)).disconnectSockets(true);
    }
  };
  return context.broadcast.on('user.changed', ({ userId }) => {
    recheck(userId).catch((error: Error) => context.logger.warn({ err: error.message }, 'notification hub: account check failed'));
  });
}

/**
 * Ending an impersonation closes the sockets opened under it: every node hears
 * `impersonation.ended`, wherever it ended, and drops its own. A handshake that read the
 * impersonation just before it ended may join its room only after the event: the ids heard last are
 * kept for it (`hasEnded`). Answers that check and the function that stops listening.
 */
function dropEndedImpersonations(context: AppContext, io: HubServer): { hasEnded: (impersonationId: string) => boolean; stop: () => void } {
  const ended = new Set<string>();
  const stop = context.broadcast.on('impersonation.ended', ({ impersonationId }) => {
    if (ended.size >= ENDED_IMPERSONATIONS_KEPT) ended.delete(ended.values().next().value!);
    ended.add(impersonationId);
    io.local.in(impersonationRoomOf(impersonationId)).disconnectSockets(true);
  });
  return { hasEnded: (impersonationId) => ended.has(impersonationId), stop };
}

/**
 * The live notification hub (spec 7): socket.io at `/hubs/notifications` on the product's http
 * server. A console connects with its access token in the handshake's `auth.token` (never in the
 * URL), verified as the admin API verifies it (issuer, audience, the admin console as client,
 * the `admin` scope, an active account, the DPoP proof of a bound token in `auth.dpop`); anything
 * else is refused (`connect_error`). An accepted socket joins its user's room and is told
 * BeginConnection; it is dropped when its token expires (the console reconnects with the renewed
 * one), when its account is locked or deleted, or when the impersonation its token was issued in
 * ends.
 *
 * With Redis configured the rooms span the nodes through the Redis adapter, so a notification
 * stored on one node reaches the user's consoles on any other; without it, this node's only.
 * Only websockets are offered: long polling would need sticky sessions at the ingress.
 */
export async function attachNotificationHub(context: AdminContext, httpServer: HttpServer): Promise<NotificationHub> {
  // Claimed first: a second hub on the context is refused before it touches the http server.
  let hub: HubServer | undefined;
  const unregister = registerHub(context, { emitToUser: (userId, event, payload) => hub?.to(roomOf(userId)).emit(event, payload) });
  const io: HubServer = new Server(httpServer, {
    // Under the base path of the public URL, like every other path of the product.
    path: `${basePathOf(context.config.server.publicUrl)}${NOTIFICATIONS_HUB_PATH}`,
    serveClient: false,
    transports: ['websocket'],
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    connectTimeout: HANDSHAKE_TIMEOUT_MS,
  });
  const redisClients = context.redis ? await useRedisAdapter(context, io, context.redis) : [];

  const authenticate = authenticator(context);
  io.use((socket, next) => {
    authenticate(socket).then(
      () => next(),
      (error: unknown) => next(error as Error),
    );
  });
  const impersonations = dropEndedImpersonations(context, io);
  io.on('connection', (socket) => {
    const { userId, impersonationId } = socket.data;
    if (impersonationId && impersonations.hasEnded(impersonationId)) return void socket.disconnect(true);
    void socket.join(roomOf(userId));
    if (impersonationId) void socket.join(impersonationRoomOf(impersonationId));
    socket.emit(NOTIFICATION_HUB_EVENTS.beginConnection, { connectionId: socket.id });
  });

  const stopWatching = dropInactiveAccounts(context, io);
  // Sockets past the handshake and its authentication, on this node.
  const stopCounting = context.metrics.watchHub(() => io.of('/').sockets.size);
  hub = io;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopWatching();
      stopCounting();
      impersonations.stop();
      unregister();
      // Not io.close(): it would also close the http server, whose owner drains it.
      io.local.disconnectSockets(true);
      await io.of('/').adapter.close();
      io.engine.close();
      for (const client of redisClients) client.disconnect();
    })());

  return { io, close };
}
