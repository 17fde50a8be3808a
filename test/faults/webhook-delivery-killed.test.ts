// The product is killed (SIGKILL) while its webhook deliveries are on the wire: a provisioning
// client created six users (six user.created events, written with the users), the receiver holds
// every delivery open without answering, and the process dies. Started again on the same database,
// once the dead node's leases end, every event arrives, each accepted once, with its first
// webhook-id: nothing lost, nothing invented.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SecretBox } from '@gatehouse/core';
import { createTestDatabase, type TestDatabase } from '@gatehouse/core/testing';
import { expect } from 'chai';
import pg from 'pg';
import { freePort } from '../support/server.js';
import { noteFigures } from './support/figures.js';
import { faultBootstrap, waitUntil } from './support/flows.js';
import { endProcess, startProductProcess, type ProductProcess } from './support/product.js';

const USERS = 6;

describe('faults: the product is killed while webhook deliveries are under way', function () {
  this.timeout(300_000);
  let dir: string;
  let database: TestDatabase;
  let db: pg.Client;
  let product: ProductProcess | undefined;
  let receiver: http.Server;
  /** Whether the receiver answers yet (before the kill it holds every request open). */
  let answering = false;
  const held: http.ServerResponse[] = [];
  const accepted: Array<{ id: string; type: string; userName: string }> = [];
  const attempts = new Map<string, number>();

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-fault-webhook-'));
    database = await createTestDatabase({ migrated: true });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        attempts.set(id, (attempts.get(id) ?? 0) + 1);
        if (!answering) return void held.push(res);
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { userName?: string; user?: { userName?: string } } };
        accepted.push({ id, type: body.type, userName: body.data.userName ?? body.data.user?.userName ?? '' });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    await endProcess(product);
    for (const res of held) res.destroy();
    await new Promise((resolve) => receiver.close(resolve));
    await db?.end();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers every event of the committed changes exactly once after the restart', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    writeFileSync(
      path.join(dir, 'bootstrap.yaml'),
      `${faultBootstrap({ users: [], workerSecret: 'fault-secret-0123456789-abcdefghijklmn', url })}  - { id: hr, name: hr, displayName: HR, type: confidential, secret: 'hr-secret-0123456789-abcdefghijklmnopq', redirectUris: ['${url}/hr/cb'] }\n`,
    );
    const env = {
      DATABASE_URL: database.url,
      IDP_BOOTSTRAP: path.join(dir, 'bootstrap.yaml'),
      IDP_ADMIN_PASSWORD: 'Admin-password-123!',
      IDP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: url,
      // The receiver is on 127.0.0.1.
      OIDC_ALLOW_PRIVATE_NETWORK: 'true',
    };
    product = await startProductProcess(port, env);

    // An endpoint for user.created, its secret sealed with the product's key as the console would register it.
    const { rows: [admin] } = await db.query(`SELECT id FROM users WHERE normalized_user_name = 'admin@gatehouse.local'`);
    const { rows: [area] } = await db.query(`SELECT id FROM areas WHERE name = 'Default'`);
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const secret = new SecretBox(Buffer.from(env.IDP_ENCRYPTION_KEY, 'base64')).encrypt(`whsec_${randomBytes(32).toString('base64')}`);
    await db.query(`INSERT INTO webhook_endpoints (url, events, secret_encrypted) VALUES ($1, '{user.created}', $2)`, [hookUrl, secret]);
    const token = `gscim_${randomBytes(32).toString('base64url')}`;
    await db.query(
      `INSERT INTO scim_tokens (application_id, area_id, name, token_hash, token_last_chars, created_by) VALUES ('hr', $1, 'fault', $2, $3, $4)`,
      [area.id, createHash('sha256').update(token).digest('hex'), token.slice(-4), admin.id],
    );

    // Six users provisioned: six committed changes, six events.
    const userNames = Array.from({ length: USERS }, (_, i) => `fault.${i}.${randomBytes(3).toString('hex')}@example.com`);
    for (const userName of userNames) {
      const res = await fetch(`${url}/scim/v2/Users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' },
        body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, name: { givenName: 'Fault', familyName: 'Test' } }),
      });
      expect(res.status, await res.text()).to.equal(201);
    }
    // The deliveries reach the receiver, which holds them open: then the process dies.
    await waitUntil('deliveries on the wire', async () => held.length >= 4, 60_000);
    const onTheWire = held.length;
    product.kill('SIGKILL');
    await product.exited;
    product = undefined;
    for (const res of held.splice(0)) res.destroy();
    const { rows: pending } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'Pending'`);
    expect(pending[0].n).to.equal(USERS);

    // Started again; the dead node's leases are over (as a minute later), and the receiver answers now.
    answering = true;
    await db.query(`UPDATE webhook_deliveries SET leased_until = now() WHERE leased_until IS NOT NULL`);
    const restarted = Date.now();
    product = await startProductProcess(port, env);
    const deliveredIn = await waitUntil('every event delivered', async () => new Set(accepted.map((a) => a.id)).size >= USERS, 120_000);

    const { rows: events } = await db.query(`SELECT id::text FROM webhook_events WHERE type = 'user.created' ORDER BY created_at`);
    expect(events).to.have.length(USERS);
    expect(accepted.map((a) => a.id).sort()).to.deep.equal(events.map((e: { id: string }) => e.id).sort());
    expect(accepted.every((a) => a.type === 'user.created')).to.equal(true);
    const { rows: delivered } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'Succeeded'`);
    expect(delivered[0].n).to.equal(USERS);
    noteFigures('webhook deliveries after SIGKILL', {
      'on the wire at the kill': onTheWire,
      'delivered after restart (ms)': Date.now() - restarted,
      'waited for the last (ms)': deliveredIn,
      'attempts in all': [...attempts.values()].reduce((sum, n) => sum + n, 0),
    });
  });
});
