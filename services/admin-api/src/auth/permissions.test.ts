import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IDENTITY_ROLES } from '@gatehouse/core';
import { sharedTestContext } from '@gatehouse/core/testing';
import { acceptsPortalToken } from '@gatehouse/contracts';
import { expect } from 'chai';
import type { Context } from 'koa';
import { createAdminContext, type AdminContext } from '../admin-context.js';
import { accountRouter, adminRouter } from '../app.js';
import type { Caller } from './koa-admin-auth.js';
import { guardedRoutes, permissionsTable, readmeTable, type GuardedRoute } from './permissions-table.js';
import { ENDPOINT_ROLES, SIGNED_IN, requireRole, type EndpointName } from './permissions.js';

describe('admin endpoint roles', () => {
  let context: AdminContext;
  before(async () => {
    context = createAdminContext(await sharedTestContext());
  });

  const routes = () => guardedRoutes([adminRouter(context), accountRouter(context)]);

  it('guards every admin route with requireRole naming an entry of ENDPOINT_ROLES', () => {
    expect(routes()).to.not.be.empty;
    expect(routes().filter((route) => !route.endpoint).map((route) => `${route.method} ${route.path}`)).to.deep.equal([]);
  });

  it('uses every entry of ENDPOINT_ROLES on some route (no stale rules)', () => {
    const used = new Set(routes().map((route) => route.endpoint));
    expect(Object.keys(ENDPOINT_ROLES).filter((name) => !used.has(name as never))).to.deep.equal([]);
  });

  it('gives every endpoint at least one known Identity role, or opens it to every signed-in user explicitly', () => {
    for (const [endpoint, roles] of Object.entries(ENDPOINT_ROLES)) {
      if (roles === SIGNED_IN) continue;
      expect(roles, endpoint).to.not.be.empty;
      for (const role of roles) expect(IDENTITY_ROLES, endpoint).to.include(role);
    }
    expect(Object.entries(ENDPOINT_ROLES).filter(([, roles]) => roles === SIGNED_IN).map(([name]) => name).sort()).to.deep.equal([
      'applications.homeInfo',
      'applications.icon',
      'filestorage.downloadExcel',
      'me.get',
      // The caller's own notifications and running processes.
      'notifications.active',
      'notifications.delete',
      'notifications.deleteAll',
      'notifications.markRead',
      // The password policy the SPAs show beside a new password.
      'policy.get',
      'tasks.active',
    ]);
  });

  describe('the portal’s session token', () => {
    /** Whether requireRole lets `caller` through to the endpoint (a 403 otherwise). */
    async function passes(endpoint: EndpointName, caller: Caller): Promise<boolean> {
      const ctx = { state: { caller } } as unknown as Context;
      let reached = false;
      try {
        await requireRole(endpoint)(ctx, async () => {
          reached = true;
        });
      } catch (error) {
        expect((error as { status?: number }).status, endpoint).to.equal(403);
      }
      return reached;
    }

    const holdingEveryRole = (kind: Caller['kind']): Caller => ({ kind, userId: 'u-1', roles: [...IDENTITY_ROLES], scopes: [], tokenId: null });

    it('opens the portal’s own endpoints only, even to a user holding every role; the console’s token opens them all', async () => {
      const opened: string[] = [];
      for (const endpoint of Object.keys(ENDPOINT_ROLES) as EndpointName[]) {
        if (await passes(endpoint, holdingEveryRole('session_token'))) opened.push(endpoint);
        expect(await passes(endpoint, holdingEveryRole('access_token')), endpoint).to.equal(true);
      }
      const portalGroups = ['clients', 'filestorage', 'notifications', 'operationRequests', 'serviceManager', 'tasks'];
      expect(opened.sort()).to.deep.equal(
        Object.keys(ENDPOINT_ROLES)
          .filter((endpoint) => ENDPOINT_ROLES[endpoint as EndpointName] === SIGNED_IN || portalGroups.includes(endpoint.split('.')[0]!))
          .sort(),
      );
      for (const endpoint of ['users.list', 'keys.list', 'keys.create', 'jobs.dashboardLink', 'securityConfig.update', 'dashboard.identifyAs', 'tenants.addMember']) {
        expect(opened, endpoint).to.not.include(endpoint);
      }
    });

    it('is accepted by name on the caller’s own notifications, running processes and job files', () => {
      for (const endpoint of ['notifications.active', 'notifications.markRead', 'notifications.delete', 'notifications.deleteAll', 'tasks.active', 'filestorage.downloadExcel']) {
        expect(acceptsPortalToken(endpoint), endpoint).to.equal(true);
      }
      for (const endpoint of ['users.list', 'jobs.dashboardLink', 'keys.list', 'dashboard.adminReport', 'applications.list']) {
        expect(acceptsPortalToken(endpoint), endpoint).to.equal(false);
      }
    });
  });

  it('is written down in the README as the code has it (npm run docs:permissions)', () => {
    const readme = readFileSync(path.join(context.config.rootDir, 'README.md'), 'utf8');
    expect(readmeTable(readme), 'the README table is out of date: run npm run docs:permissions').to.equal(
      permissionsTable(routes() as GuardedRoute[]),
    );
  });
});
