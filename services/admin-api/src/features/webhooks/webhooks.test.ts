import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookDeliverer, writeSystemLog, type WebhookDelivererOptions } from '@gatehouse/core';
import { buildApplication } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { buildAdminWorld, call, logsWhere, type AdminWorld } from '../../testing/admin-world.js';
import { tellWebhookOwners } from '../jobs/runtime.js';

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Received {
  /** The path it was posted to (one receiver plays several endpoints). */
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  status: number;
}

/**
 * A receiver as a customer runs one, on 127.0.0.1: it answers each request with the status its
 * `answer` gives (by how many times that webhook-id came before), and keeps what came.
 */
class Receiver {
  readonly received: Received[] = [];
  private server?: http.Server;
  url = '';
  answer: (attempt: number, request: http.IncomingMessage) => { status: number; headers?: Record<string, string> } = () => ({ status: 204 });

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        const path = req.url ?? '/';
        const attempt = this.received.filter((r) => r.id === id && r.path === path).length + 1;
        const { status, headers } = this.answer(attempt, req);
        this.received.push({
          path,
          id,
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          body: Buffer.concat(chunks).toString('utf8'),
          status,
        });
        res.writeHead(status, headers).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** What was received with a 2xx answer, by path and webhook-id. */
  accepted(): Map<string, Received[]> {
    const map = new Map<string, Received[]>();
    for (const r of this.received.filter((x) => x.status >= 200 && x.status < 300)) map.set(`${r.path} ${r.id}`, [...(map.get(`${r.path} ${r.id}`) ?? []), r]);
    return map;
  }

  types(): string[] {
    return [...this.accepted().values()].map((list) => (JSON.parse(list[0]!.body) as { type: string }).type);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The Standard Webhooks recipe, written from the specification: HMAC-SHA256 of `id.timestamp.body` with the secret's bytes, any `v1,` signature matching. */
function verifiedByRecipe(secret: string, message: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${message.id}.${message.timestamp}.${message.body}`).digest();
  return message.signature.split(' ').some((part) => {
    const [version, value] = part.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Whether the reference library accepts it with this secret. */
function verifiedByLibrary(secret: string, message: Received): boolean {
  try {
    new StandardWebhook(secret).verify(message.body, { 'webhook-id': message.id, 'webhook-timestamp': message.timestamp, 'webhook-signature': message.signature });
    return true;
  } catch {
    return false;
  }
}

describe('webhooks: endpoints, signed deliveries, retries and the outbox', function () {
  this.timeout(120_000);
  let w: AdminWorld;
  let receiver: Receiver;
  let deliverer: WebhookDeliverer;
  let app: Awaited<ReturnType<typeof buildApplication>>;

  const deliver = (options: WebhookDelivererOptions = {}) => new WebhookDeliverer(w.context, { retryDelaysMs: [20, 20, 20], leaseMs: 5_000, timeoutMs: 2_000, random: () => 0.5, ...options });

  /** Runs delivery rounds until `done` holds (bounded). */
  async function deliverUntil(done: () => boolean | Promise<boolean>, using = deliverer): Promise<void> {
    for (let round = 0; round < 200; round++) {
      await using.drain();
      if (await done()) return;
      await sleep(25);
    }
    throw new Error('the deliveries did not arrive');
  }

  async function endpoint(body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
    const res = await call(w, 'post', '/webhooks', { body: { url: receiver.url, ...body } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { id: res.body.id, secret: res.body.secret };
  }

  /** Drops every endpoint (and so every delivery), so each test hears only its own. */
  async function clearEndpoints() {
    await w.context.dataSource.query('DELETE FROM webhook_endpoints');
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 204 });
  }

  before(async () => {
    w = await buildAdminWorld({ overrides: { 'oidc.allowPrivateNetworkRequests': true } });
    receiver = new Receiver();
    await receiver.start();
    deliverer = deliver();
    app = await buildApplication(w.context.dataSource, { id: unique('crm'), roles: ['Reader'] });
  });
  after(async () => {
    await deliverer?.stop();
    await receiver?.close();
  });
  beforeEach(() => clearEndpoints());

  describe('the endpoints in the admin API', () => {
    it('registers an endpoint and answers its secret once; the secret is never answered or logged again', async () => {
      const created = await call(w, 'post', '/webhooks', { body: { url: 'https://hooks.example.com/in', events: ['user.created', 'user.locked'], description: 'SIEM' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.body).to.include({ url: 'https://hooks.example.com/in', description: 'SIEM', enabled: true, applicationId: null, pendingDeliveries: 0 });
      const read = await call(w, 'get', `/webhooks/${created.body.id}`);
      expect(read.status).to.equal(200);
      expect(JSON.stringify(read.body)).not.to.include(created.body.secret.slice(6, 20));
      expect((await call(w, 'get', '/webhooks')).body.items.map((item: { id: string }) => item.id)).to.include(created.body.id);
      const logs = await logsWhere(w, 'webhookId', created.body.id);
      expect(logs.map((row) => row.operation)).to.deep.equal(['CreateWebhook']);
      expect(JSON.stringify(logs)).not.to.include(created.body.secret.slice(6, 20));
      const [stored] = await w.context.dataSource.query('SELECT secret_encrypted FROM webhook_endpoints WHERE id = $1', [created.body.id]);
      expect(stored.secret_encrypted).not.to.include(created.body.secret.slice(6, 20));
    });

    it('refuses an address that is not https, carries credentials, or is on a private network unless allowed', async () => {
      for (const url of ['http://hooks.example.com/in', 'https://user:pass@hooks.example.com/in', 'ftp://hooks.example.com', 'not a url']) {
        const res = await call(w, 'post', '/webhooks', { body: { url, events: ['user.created'] } });
        expect(res.status, url).to.equal(400);
        expect(res.body.errors[0]).to.include({ field: 'url', code: 'webhooks.invalid_url' });
      }
      const strict = await buildAdminWorld();
      for (const url of ['https://10.1.2.3/in', 'https://127.0.0.1/in', 'http://localhost:8080/in', 'https://[::1]/in', 'https://169.254.169.254/latest']) {
        const res = await call(strict, 'post', '/webhooks', { body: { url, events: ['user.created'] } });
        expect(res.status, url).to.equal(400);
        expect(res.body.errors[0], url).to.include({ field: 'url', code: 'webhooks.private_address' });
        expect(res.body.errors[0].message).to.match(/private or loopback network/);
      }
    });

    it('keeps two rotations racing on one endpoint in order: the secret of one, the previous secret of the other', async () => {
      const hook = await endpoint({ events: ['user.locked'] });
      const [first, second] = await Promise.all([call(w, 'post', `/webhooks/${hook.id}/rotateSecret`), call(w, 'post', `/webhooks/${hook.id}/rotateSecret`)]);
      expect([first.status, second.status]).to.deep.equal([200, 200]);
      const [row] = await w.context.dataSource.query('SELECT secret_encrypted, previous_secret_encrypted FROM webhook_endpoints WHERE id = $1', [hook.id]);
      const stored = [w.context.secrets.decrypt(row.secret_encrypted), w.context.secrets.decrypt(row.previous_secret_encrypted)];
      expect(stored).to.have.members([first.body.secret, second.body.secret]);
    });

    it('refuses an unknown application and event, and answers 404 for an unknown endpoint', async () => {
      const unknownApp = await call(w, 'post', '/webhooks', { body: { url: receiver.url, events: ['user.created'], applicationId: 'nope' } });
      expect(unknownApp.status).to.equal(400);
      expect(unknownApp.body.errors[0]).to.include({ field: 'applicationId' });
      const unknownEvent = await call(w, 'post', '/webhooks', { body: { url: receiver.url, events: ['user.exploded'] } });
      expect(unknownEvent.status).to.equal(400);
      const noEvent = await call(w, 'post', '/webhooks', { body: { url: receiver.url, events: [] } });
      expect(noEvent.status).to.equal(400);
      expect((await call(w, 'get', '/webhooks/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    });

    it('is closed to everyone but administrators', async () => {
      for (const as of ['areaAdmin', 'tenantAdmin'] as const) {
        expect((await call(w, 'get', '/webhooks', { as })).status, as).to.equal(403);
        expect((await call(w, 'post', '/webhooks', { as, body: { url: receiver.url, events: ['user.created'] } })).status, as).to.equal(403);
      }
    });
  });

  describe('deliveries', () => {
    it('delivers every event of a scripted session exactly once, signed, after the receiver fails the first two attempts', async () => {
      const global = await endpoint({ url: `${receiver.url}?endpoint=global`, events: ['user.created', 'user.updated', 'user.locked', 'user.unlocked', 'user.password_changed', 'user.deleted', 'role.granted', 'role.revoked', 'group.member_added'] });
      const forApp = await endpoint({ url: `${receiver.url}?endpoint=app`, events: ['role.granted', 'role.revoked', 'user.created'], applicationId: app.id });
      receiver.answer = (attempt) => ({ status: attempt <= 2 ? 503 : 204 });

      const name = unique('webhook-user');
      const created = await call(w, 'post', '/users', { body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'Web', lastName: 'Hook', areaId: w.areaA.id, language: 'en' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const userId = created.body.id as string;
      expect((await call(w, 'put', `/users/${userId}`, { body: { email: `${name}@example.com`, firstName: 'Webb', lastName: 'Hook', areaId: w.areaA.id, language: 'en' } })).status).to.equal(200);
      expect((await call(w, 'get', `/api/v1/account/lock/${userId}`)).status).to.equal(200);
      expect((await call(w, 'get', `/api/v1/account/unlock/${userId}`)).status).to.equal(200);
      const granted = await call(w, 'put', `/users/${userId}/roles/${app.id}`, { body: { tenantId: w.tenantA.id, roleIds: [app.roleByName.Reader!.id] } });
      expect(granted.status, JSON.stringify(granted.body)).to.be.oneOf([200, 204]);
      expect((await call(w, 'delete', `/users/${userId}/roles/${app.id}`)).status).to.be.oneOf([200, 204]);
      const group = await call(w, 'post', '/groups', { body: { name: unique('group'), areaId: w.areaA.id } });
      expect((await call(w, 'post', `/groups/${group.body.id}/users`, { body: { userId, permission: 'Reader' } })).status).to.be.oneOf([200, 201, 204]);
      const password = await call(w, 'post', `/users/change-password/${userId}`, { body: { password: 'Another-Str0ng-Passw0rd!', confirmPassword: 'Another-Str0ng-Passw0rd!' } });
      expect(password.status, JSON.stringify(password.body)).to.be.oneOf([200, 204]);
      expect((await call(w, 'delete', `/users/${userId}`)).status).to.be.oneOf([200, 204]);

      const expected = ['user.created', 'user.updated', 'user.locked', 'user.unlocked', 'role.granted', 'role.revoked', 'group.member_added', 'user.password_changed', 'user.deleted'];
      // Each event to the global endpoint, role events and user.created to the application's too (user.created is about no application).
      const total = expected.length + 2;
      await deliverUntil(() => receiver.accepted().size >= total);
      await sleep(100);
      await deliverer.drain();
      const accepted = receiver.accepted();
      // Every message exactly once, after two refused attempts.
      for (const [key, list] of accepted) {
        expect(list, key).to.have.length(1);
        expect(receiver.received.filter((r) => `${r.path} ${r.id}` === key && r.status === 503), key).to.have.length(2);
      }
      const byEndpoint = async (endpointId: string) =>
        (
          await w.context.dataSource.query(
            `SELECT ev.type FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id WHERE d.endpoint_id = $1 AND d.status = 'Succeeded' ORDER BY ev.created_at`,
            [endpointId],
          )
        ).map((row: { type: string }) => row.type);
      expect(await byEndpoint(global.id)).to.deep.equal(expected);
      expect(await byEndpoint(forApp.id)).to.deep.equal(['role.granted', 'role.revoked']);
      // Signed with the endpoint's secret: the reference library and the specification's recipe agree.
      for (const message of [...accepted.values()].flat()) {
        const secret = message.path.endsWith('endpoint=global') ? global.secret : forApp.secret;
        expect(verifiedByLibrary(secret, message) && verifiedByRecipe(secret, message), message.body).to.equal(true);
        const other = secret === global.secret ? forApp.secret : global.secret;
        expect(verifiedByLibrary(other, message) || verifiedByRecipe(other, message), 'another endpoint’s secret').to.equal(false);
        expect(verifiedByRecipe(global.secret, { ...message, body: message.body.replace('user', 'usr') })).to.equal(false);
      }
      const granted1 = [...accepted.values()].flat().map((m) => JSON.parse(m.body) as { type: string; timestamp: string; data: Record<string, unknown> }).find((body) => body.type === 'role.granted')!;
      expect(granted1.data).to.deep.include({ identityType: 'User', identityId: userId, applicationId: app.id, tenantId: w.tenantA.id });
      expect(granted1.data.roles).to.deep.equal([{ id: app.roleByName.Reader!.id, name: 'Reader' }]);
      expect(granted1.timestamp).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it('writes nothing for a change that is rolled back', async () => {
      await endpoint({ events: ['user.created'] });
      const before = await w.context.dataSource.query('SELECT count(*)::int AS n FROM webhook_events');
      await w.context.dataSource
        .transaction(async (em) => {
          await writeSystemLog(em, { operation: 'CreateUser', userId: null, userName: null, metadata: { targetUserId: null, targetUserName: 'ghost@example.com' } });
          throw new Error('the change fails after its log row');
        })
        .catch(() => undefined);
      const after = await w.context.dataSource.query('SELECT count(*)::int AS n FROM webhook_events');
      expect(after[0].n).to.equal(before[0].n);
      await deliverer.drain();
      expect(receiver.received).to.have.length(0);
    });

    it('writes no event nobody hears', async () => {
      const before = await w.context.dataSource.query('SELECT count(*)::int AS n FROM webhook_events');
      await call(w, 'post', '/groups', { body: { name: unique('quiet'), areaId: w.areaA.id } });
      const name = unique('quiet');
      await call(w, 'post', '/users', { body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'Q', lastName: 'Q', areaId: w.areaA.id, language: 'en' } });
      const after = await w.context.dataSource.query('SELECT count(*)::int AS n FROM webhook_events');
      expect(after[0].n).to.equal(before[0].n);
    });

    it('signs with both secrets while a rotation overlaps, and sends a delivery again with the same webhook-id', async () => {
      const hook = await endpoint({ events: ['user.locked'] });
      const rotated = await call(w, 'post', `/webhooks/${hook.id}/rotateSecret`);
      expect(rotated.status).to.equal(200);
      expect(rotated.body.secret).to.match(/^whsec_/).and.not.equal(hook.secret);
      const name = unique('rotate');
      const user = await call(w, 'post', '/users', { body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'R', lastName: 'R', areaId: w.areaA.id, language: 'en' } });
      await call(w, 'get', `/api/v1/account/lock/${user.body.id}`);
      await deliverUntil(() => receiver.accepted().size === 1);
      const [message] = [...receiver.accepted().values()].flat();
      expect(message!.signature.split(' ')).to.have.length(2);
      expect(verifiedByLibrary(hook.secret, message!) && verifiedByRecipe(hook.secret, message!), 'the previous secret').to.equal(true);
      expect(verifiedByLibrary(rotated.body.secret, message!) && verifiedByRecipe(rotated.body.secret, message!), 'the new secret').to.equal(true);

      const deliveries = await call(w, 'get', `/webhooks/${hook.id}/deliveries`);
      expect(deliveries.status).to.equal(200);
      expect(deliveries.body.items[0]).to.include({ status: 'Succeeded', attempts: 1, lastStatusCode: 204, eventType: 'user.locked' });
      const again = await call(w, 'post', `/webhooks/${hook.id}/deliveries/${deliveries.body.items[0].id}/resend`);
      expect(again.status).to.equal(200);
      expect(again.body.status).to.equal('Pending');
      await deliverUntil(() => receiver.received.length === 2);
      expect(receiver.received[1]!.id).to.equal(message!.id);
      expect((await logsWhere(w, 'webhookId', hook.id)).map((row) => row.operation)).to.include.members(['RotateWebhookSecret', 'ResendWebhookDelivery']);
    });

    it('follows no redirect, gives up after the last attempt, and turns off an endpoint that received nothing for a day, telling its creator', async () => {
      const hook = await endpoint({ events: ['user.locked'] });
      receiver.answer = () => ({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
      // Attempts go on past the day (here 100 ms) without one received, as they do in production (about 27 hours of retries).
      const failing = deliver({ retryDelaysMs: [60, 60, 60, 60, 60, 60], disableAfterMs: 100, onEndpointDisabled: tellWebhookOwners(w.context) });
      const name = unique('failing');
      const user = await call(w, 'post', '/users', { body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'F', lastName: 'F', areaId: w.areaA.id, language: 'en' } });
      await call(w, 'get', `/api/v1/account/lock/${user.body.id}`);
      await deliverUntil(async () => {
        const [row] = await w.context.dataSource.query('SELECT enabled FROM webhook_endpoints WHERE id = $1', [hook.id]);
        return row.enabled === false;
      }, failing);
      const read = await call(w, 'get', `/webhooks/${hook.id}`);
      expect(read.body).to.include({ enabled: false, disabledReason: 'failing' });
      const [delivery] = (await call(w, 'get', `/webhooks/${hook.id}/deliveries`)).body.items;
      expect(delivery.lastStatusCode).to.equal(302);
      expect(delivery.lastError).to.equal('redirect not followed');
      expect(receiver.received.every((r) => r.status === 302)).to.equal(true);
      const notifications = await w.context.dataSource.query(
        `SELECT description, message->>'key' AS key FROM notifications WHERE user_id = $1 AND type = 'WebhookDisabled'`,
        [w.callers.admin.id],
      );
      expect(notifications).to.have.length(1);
      // Written in the creator's language, naming the endpoint.
      expect(notifications[0]).to.include({ key: 'webhooks.disabled' });
      expect(notifications[0].description).to.include(receiver.url);
      // Turned on again, it starts afresh and the waiting delivery goes out.
      receiver.answer = () => ({ status: 200 });
      const on = await call(w, 'put', `/webhooks/${hook.id}`, { body: { url: receiver.url, events: ['user.locked'], enabled: true } });
      expect(on.body).to.include({ enabled: true, disabledReason: null });
      await deliverUntil(() => receiver.accepted().size === 1);
    });

    it('gives a delivery up after its last attempt', async () => {
      const hook = await endpoint({ events: ['user.locked'] });
      receiver.answer = () => ({ status: 500 });
      const name = unique('given-up');
      const user = await call(w, 'post', '/users', { body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'G', lastName: 'G', areaId: w.areaA.id, language: 'en' } });
      await call(w, 'get', `/api/v1/account/lock/${user.body.id}`);
      await deliverUntil(async () => (await call(w, 'get', `/webhooks/${hook.id}/deliveries?status=Failed`)).body.count === 1);
      const [delivery] = (await call(w, 'get', `/webhooks/${hook.id}/deliveries?status=Failed`)).body.items;
      // The first attempt and one per retry delay.
      expect(delivery).to.include({ attempts: 4, lastStatusCode: 500, nextAttemptAt: null });
      expect(receiver.received).to.have.length(4);
    });

    it('never posts to a private address unless the deployment allows it, whatever the stored address', async () => {
      const strict = await buildAdminWorld();
      const { id } = (
        await strict.context.dataSource.query(
          `INSERT INTO webhook_endpoints (url, events, secret_encrypted) VALUES ($1, '{user.locked}', $2) RETURNING id`,
          [receiver.url.replace('127.0.0.1', 'localhost'), strict.context.secrets.encrypt(`whsec_${randomBytes(32).toString('base64')}`)],
        )
      )[0];
      await strict.context.dataSource.query(
        `WITH ev AS (INSERT INTO webhook_events (type, payload) VALUES ('user.locked', '{"type":"user.locked","data":{}}') RETURNING id)
         INSERT INTO webhook_deliveries (endpoint_id, event_id) SELECT $1, ev.id FROM ev`,
        [id],
      );
      const guarded = new WebhookDeliverer(strict.context, { retryDelaysMs: [] });
      await guarded.drain();
      const [delivery] = await strict.context.dataSource.query('SELECT status, last_error, last_status_code FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
      expect(delivery).to.deep.include({ status: 'Failed', last_status_code: null });
      expect(delivery.last_error).to.match(/resolves to 127\.0\.0\.1, a private or reserved address/);
      expect(receiver.received).to.have.length(0);
    });

    it('holds a delivery for one node at a time: two deliverers draining together post each message once', async () => {
      await endpoint({ events: ['user.locked'] });
      for (let i = 0; i < 6; i++) {
        const name = unique('race');
        const user = await call(w, 'post', '/users', { body: { userName: `${name}@example.com`, email: `${name}@example.com`, firstName: 'R', lastName: 'R', areaId: w.areaA.id, language: 'en' } });
        await call(w, 'get', `/api/v1/account/lock/${user.body.id}`);
      }
      const other = deliver();
      await Promise.all([deliverer.drain(), other.drain()]);
      await deliverUntil(() => receiver.accepted().size === 6);
      expect(receiver.received).to.have.length(6);
    });
  });
});
