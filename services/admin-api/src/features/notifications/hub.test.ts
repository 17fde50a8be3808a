import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createContext, loadConfig, type AppContext, type User } from '@gatehouse/core';
import { NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH } from '@gatehouse/contracts';
import { buildUser, createTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { io, type Socket } from 'socket.io-client';
import { createAdminContext, type AdminContext } from '../../admin-context.js';
import { createApp } from '../../app.js';
import { buildAdminWorld, userIn, type AdminWorld } from '../../testing/admin-world.js';
import { generateSigningKey, insertSigningKey, mintAccessToken, type AccessTokenOptions } from '../../testing/tokens.js';
import { attachNotificationHub, type NotificationHub } from './hub.js';
import { announceProcess, notify } from './notify.js';

/** One node of the product: the admin API and the hub on one http server. */
interface Node {
  context: AdminContext;
  server: http.Server;
  hub: NotificationHub;
  url: string;
  close(): Promise<void>;
}

async function startNode(appContext: AppContext): Promise<Node> {
  const context = createAdminContext(appContext);
  const handler = createApp(context).callback();
  const server = http.createServer((req, res) => void handler(req, res));
  const hub = await attachNotificationHub(context, server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    await hub.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { context, server, hub, url, close };
}

/** What a connection attempt came to: accepted (BeginConnection) or refused (connect_error). */
type Outcome = { accepted: { connectionId: string } } | { refused: Error };

/** The next `event` the socket receives; rejects after `ms`. */
function next<T = unknown>(socket: Socket, event: string, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

function outcome(socket: Socket): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('neither accepted nor refused')), 5000);
    socket.once(NOTIFICATION_HUB_EVENTS.beginConnection, (accepted: { connectionId: string }) => {
      clearTimeout(timer);
      resolve({ accepted });
    });
    socket.once('connect_error', (refused: Error) => {
      clearTimeout(timer);
      resolve({ refused });
    });
  });
}

describe('/hubs/notifications: the live notification hub', function () {
  this.timeout(30_000);
  let w: AdminWorld;
  let node: Node;
  const sockets: Socket[] = [];

  before(async () => {
    w = await buildAdminWorld();
    node = await startNode(w.context);
  });

  after(async () => {
    await node.close();
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });

  const token = (user: User, options: AccessTokenOptions = {}) => mintAccessToken(w.context, w.key, { sub: user.id, roles: ['Administrator'], ...options });

  /** A console's connection, the way the console opens it (token in the handshake, websocket only). */
  function open(url: string, auth: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}): Socket {
    const socket = io(url, { path: NOTIFICATIONS_HUB_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth, ...extra });
    sockets.push(socket);
    return socket;
  }

  /** A connected socket of `user`'s on `target` (this test's node unless told). */
  async function connected(user: User, target: Node = node): Promise<Socket> {
    const socket = open(target.url, { token: await token(user) });
    const result = await outcome(socket);
    expect(result, 'the connection was refused').to.have.property('accepted');
    return socket;
  }

  const someone = () => userIn(w, w.areaA);

  it('accepts a console token given in the handshake and says BeginConnection', async () => {
    const user = await someone();
    const socket = open(node.url, { token: await token(user) });
    const result = await outcome(socket);
    expect(result).to.have.property('accepted');
    expect((result as { accepted: { connectionId: string } }).accepted.connectionId).to.equal(socket.id);
  });

  it('pushes NewNotification to the user’s sockets only: another user’s socket receives nothing', async () => {
    const ann = await someone();
    const bob = await someone();
    const annSocket = await connected(ann);
    const annSecondTab = await connected(ann);
    const bobSocket = await connected(bob);
    const bobReceived: Array<{ userId: string }> = [];
    bobSocket.on(NOTIFICATION_HUB_EVENTS.newNotification, (payload: { userId: string }) => bobReceived.push(payload));

    const arriving = Promise.all([next(annSocket, NOTIFICATION_HUB_EVENTS.newNotification), next(annSecondTab, NOTIFICATION_HUB_EVENTS.newNotification)]);
    const created = await notify(w.context, ann.id, { type: 'PermissionAssigned', description: 'For Ann' });
    const [first, second] = await arriving;

    expect(first).to.deep.equal(created);
    expect(second).to.deep.equal(created);
    expect(created).to.include({ userId: ann.id, description: 'For Ann', readed: false });

    // Bob's own notification comes after Ann's on the same path: had Ann's reached him, it would be first.
    const bobs = next<{ userId: string; description: string }>(bobSocket, NOTIFICATION_HUB_EVENTS.newNotification);
    await notify(w.context, bob.id, { type: 'PermissionAssigned', description: 'For Bob' });
    expect((await bobs).description).to.equal('For Bob');
    expect(bobReceived.map((payload) => payload.userId)).to.deep.equal([bob.id]);
  });

  it('pushes NewProcess to the user’s sockets', async () => {
    const user = await someone();
    const socket = await connected(user);
    const pushed = next(socket, NOTIFICATION_HUB_EVENTS.newProcess);
    const startTime = new Date();
    announceProcess(w.context, user.id, { id: '6f1c1d5e-3b5a-4b8e-9f0a-1c2d3e4f5a6b', type: 'BulkInsertUsers', status: 'Running', startTime, progress: 0, total: 40 });
    expect(await pushed).to.deep.equal({
      id: '6f1c1d5e-3b5a-4b8e-9f0a-1c2d3e4f5a6b',
      type: 'BulkInsertUsers',
      status: 'Running',
      startTime: startTime.toISOString(),
      progress: 0,
      total: 40,
    });
  });

  describe('refuses (connect_error) and never joins', () => {
    const refusedWith = async (auth: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => {
      const result = await outcome(open(node.url, auth, extra));
      expect(result, 'the connection was accepted').to.have.property('refused');
      return (result as { refused: Error & { data?: unknown } }).refused;
    };

    it('a connection without a token', async () => {
      const error = await refusedWith(undefined);
      expect(error.message).to.equal('unauthorized');
      expect(error.data).to.deep.equal({ code: 'errors.unauthorized' });
    });

    it('a token in the URL rather than the handshake', async () => {
      const user = await someone();
      await refusedWith(undefined, { query: { token: await token(user), access_token: await token(user) } });
    });

    it('a malformed token, and a personal access token', async () => {
      await refusedWith({ token: 'not.a.token' });
      await refusedWith({ token: `gpat_${randomBytes(32).toString('base64url')}` });
      await refusedWith({ token: 42 });
    });

    it('an expired token', async () => {
      await refusedWith({ token: await token(await someone(), { expiresIn: -60 }) });
    });

    it('a token issued to another client, for another audience, or without the admin scope', async () => {
      const user = await someone();
      await refusedWith({ token: await token(user, { clientId: 'portal' }) });
      await refusedWith({ token: await token(user, { audience: 'https://elsewhere.example.com' }) });
      await refusedWith({ token: await token(user, { scope: 'openid profile' }) });
    });

    it('a portal session token: the hub is the console’s, the portal reads its notifications by polling', async () => {
      const user = await someone();
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      await w.context.dataSource.query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [id, { kind: 'AccessToken', jti: id, accountId: user.id, clientId: w.context.config.oidc.portalClientId, grantId: `g-${id}`, scope: 'openid profile', iat: now, exp: now + 3600 }, `g-${id}`],
      );
      const error = await refusedWith({ token: id });
      expect(error.data).to.deep.equal({ code: 'errors.unauthorized' });
    });

    it('a token signed by a key the provider never published', async () => {
      const stranger = await generateSigningKey();
      const user = await someone();
      await refusedWith({ token: await mintAccessToken(w.context, stranger, { sub: user.id }) });
    });

    it('a valid token of a locked account', async () => {
      const user = await someone();
      await w.context.dataSource.query('UPDATE users SET locked = true WHERE id = $1', [user.id]);
      w.context.broadcast.publish('user.changed', { userId: user.id });
      await refusedWith({ token: await token(user) });
    });
  });

  it('drops a socket when its token expires (the console reconnects with the renewed one)', async () => {
    const user = await someone();
    const socket = open(node.url, { token: await token(user, { expiresIn: 2 }) });
    expect(await outcome(socket)).to.have.property('accepted');
    expect(await next(socket, 'disconnect', 6000)).to.equal('io server disconnect');
  });

  it('drops the sockets of an account locked meanwhile', async () => {
    const user = await someone();
    const bystander = await someone();
    const socket = await connected(user);
    const other = await connected(bystander);
    const dropped = next(socket, 'disconnect');

    await w.context.dataSource.query('UPDATE users SET locked = true WHERE id = $1', [user.id]);
    w.context.broadcast.publish('user.changed', { userId: user.id });

    expect(await dropped).to.equal('io server disconnect');
    expect(other.connected).to.equal(true);
  });

  describe('a God user signed in as the user (Identify As)', () => {
    /** Records that `actor` is signed in as `user` in some session, for five minutes; answers its id. */
    const impersonation = async (actor: User, user: User): Promise<string> => {
      const [row] = await w.context.dataSource.query(
        `INSERT INTO impersonations (actor_id, target_id, session_uid, expires_at) VALUES ($1, $2, md5(random()::text), now() + interval '5 minutes') RETURNING id`,
        [actor.id, user.id],
      );
      return row.id as string;
    };
    /** Ends it as the provider does: the row, then the event every node hears. */
    const end = async (id: string) => {
      await w.context.dataSource.query(`UPDATE impersonations SET ended_at = now(), end_reason = 'Ended' WHERE id = $1`, [id]);
      w.context.broadcast.publish('impersonation.ended', { impersonationId: id });
    };
    /** `user`'s console token issued while `actor` was signed in as them, in the impersonation `id` (none: a token issued before tokens named it). */
    const actingToken = (user: User, actor: User, id?: string) =>
      token(user, { claims: { act: { sub: actor.id, name: 'Actor', ...(id ? { impersonation_id: id } : {}) } } });
    const handshake = async (bearer: string) => Object.keys(await outcome(open(node.url, { token: bearer })))[0];

    it('accepts the token of the current impersonation, and refuses it once that one has ended, even while the same actor is signed in as the same user again', async () => {
      const user = await someone();
      const god = w.callers.god;
      const first = await impersonation(god, user);
      const old = await actingToken(user, god, first);
      expect(await handshake(old)).to.equal('accepted');

      await end(first);
      expect(await handshake(old)).to.equal('refused');
      const second = await impersonation(god, user);
      expect(await handshake(old)).to.equal('refused');
      expect(await handshake(await actingToken(user, god, second))).to.equal('accepted');
    });

    it('refuses a token whose act names no impersonation, and one naming another pair’s', async () => {
      const user = await someone();
      const god = w.callers.god;
      const live = await impersonation(god, user);
      expect(await handshake(await actingToken(user, god))).to.equal('refused');
      expect(await handshake(await actingToken(await someone(), god, live))).to.equal('refused');
      expect(await handshake(await actingToken(user, w.callers.admin, live))).to.equal('refused');
    });

    it('drops the sockets of an impersonation when it ends, and only those', async () => {
      const user = await someone();
      const god = w.callers.god;
      const id = await impersonation(god, user);
      const acting = open(node.url, { token: await actingToken(user, god, id) });
      expect(await outcome(acting)).to.have.property('accepted');
      const own = await connected(user);
      const dropped = next(acting, 'disconnect');

      await end(id);

      expect(await dropped).to.equal('io server disconnect');
      // The user's own console stays, and still receives their notifications.
      const arriving = next(own, NOTIFICATION_HUB_EVENTS.newNotification);
      await notify(w.context, user.id, { type: 'PermissionAssigned', description: 'Still here' });
      expect(await arriving).to.include({ description: 'Still here' });
      expect(own.connected).to.equal(true);
    });
  });

  it('closes its sockets on close and leaves the http server to its owner', async () => {
    const world = await buildAdminWorld();
    const own = await startNode(world.context);
    try {
      const socket = open(own.url, { token: await mintAccessToken(world.context, world.key, { sub: world.callers.admin.id }) });
      expect(await outcome(socket)).to.have.property('accepted');
      const dropped = next(socket, 'disconnect');

      await own.hub.close();

      expect(await dropped).to.equal('io server disconnect');
      const answer = await fetch(`${own.url}/api/v1/admin/me`);
      expect(answer.status, 'the admin API still answers on the same server').to.equal(401);
    } finally {
      await own.close();
    }
  });

  it('refuses a second hub on the same context', async () => {
    const server = http.createServer();
    let error: unknown;
    try {
      await attachNotificationHub(w.context, server);
    } catch (caught) {
      error = caught;
    }
    expect((error as Error | undefined)?.message).to.match(/already attached/);
  });

  it('keeps serving its own sockets, without crashing, while Redis is out of reach', async () => {
    // A rejection nobody handles would end a real process.
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    const context = await createTestContext({ overrides: { 'redis.url': 'redis://127.0.0.1:1' } });
    const key = await insertSigningKey(context);
    const user = await buildUser(context.dataSource);
    const own = await startNode(context);
    try {
      const socket = open(own.url, { token: await mintAccessToken(context, key, { sub: user.id }) });
      expect(await outcome(socket)).to.have.property('accepted');
      const arriving = next(socket, NOTIFICATION_HUB_EVENTS.newNotification);
      await notify(own.context, user.id, { type: 'PermissionAssigned', description: 'Local delivery' });
      expect(await arriving).to.include({ description: 'Local delivery' });
      // Long enough for the publish to Redis to give up.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', record);
      await own.close();
    }
  });

  describe('across two nodes (Redis adapter)', () => {
    it('delivers a notification stored on node A to the user’s socket on node B, and to no one else (skipped without REDIS_URL)', async function () {
      if (!w.context.redis) {
        // Without Redis each node reaches its own sockets only: there is nothing to test across nodes.
        this.skip();
      }
      const other = await createContext(
        loadConfig({
          overrides: {
            'database.url': w.context.config.database.url,
            'database.poolSize': 2,
            'server.port': 0,
            'security.encryptionKey': randomBytes(32).toString('base64'),
          },
        }),
      );
      const nodeB = await startNode(other);
      try {
        const ann = await someone();
        const bob = await someone();
        const annOnB = await connected(ann, nodeB);
        const bobOnA = await connected(bob, node);
        const bobReceived: unknown[] = [];
        bobOnA.on(NOTIFICATION_HUB_EVENTS.newNotification, (payload: unknown) => bobReceived.push(payload));

        const arriving = next(annOnB, NOTIFICATION_HUB_EVENTS.newNotification);
        const created = await notify(w.context, ann.id, { type: 'PermissionAssigned', description: 'Stored on A' });
        expect(await arriving).to.deep.equal(created);

        // And back: a process announced on B reaches Bob on A.
        const process = next(bobOnA, NOTIFICATION_HUB_EVENTS.newProcess);
        announceProcess(nodeB.context, bob.id, { id: '0b7e2c4a-1d3f-4e5a-8b6c-7d8e9f0a1b2c', type: 'ExportTenants', status: 'Queued', startTime: new Date(), progress: 0, total: null });
        expect(await process).to.include({ type: 'ExportTenants', status: 'Queued' });
        expect(bobReceived).to.deep.equal([]);
      } finally {
        await nodeB.close();
        await other.close();
      }
    });

    it('drops, on node B, the sockets of an impersonation ended on node A (skipped without REDIS_URL)', async function () {
      if (!w.context.redis) {
        // Without Redis the event reaches this node's sockets only, tested above.
        this.skip();
      }
      const other = await createContext(
        loadConfig({
          overrides: {
            'database.url': w.context.config.database.url,
            'database.poolSize': 2,
            'server.port': 0,
            'security.encryptionKey': randomBytes(32).toString('base64'),
          },
        }),
      );
      const nodeB = await startNode(other);
      try {
        const user = await someone();
        const [row] = await w.context.dataSource.query(
          `INSERT INTO impersonations (actor_id, target_id, session_uid, expires_at) VALUES ($1, $2, md5(random()::text), now() + interval '5 minutes') RETURNING id`,
          [w.callers.god.id, user.id],
        );
        const acting = open(nodeB.url, { token: await token(user, { claims: { act: { sub: w.callers.god.id, name: 'Actor', impersonation_id: row.id } } }) });
        expect(await outcome(acting)).to.have.property('accepted');
        const dropped = next(acting, 'disconnect');

        await w.context.dataSource.query(`UPDATE impersonations SET ended_at = now(), end_reason = 'Ended' WHERE id = $1`, [row.id]);
        w.context.broadcast.publish('impersonation.ended', { impersonationId: row.id as string });

        expect(await dropped).to.equal('io server disconnect');
      } finally {
        await nodeB.close();
        await other.close();
      }
    });
  });
});
