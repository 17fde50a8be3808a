import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IDENTITY_ROLES, type AppContext } from '@gatehouse/core';
import { sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { accountRouter, adminRouter } from '../app.js';
import { guardedRoutes, permissionsTable, readmeTable, type GuardedRoute } from './permissions-table.js';
import { ENDPOINT_ROLES, SIGNED_IN } from './permissions.js';

describe('admin endpoint roles', () => {
  let context: AppContext;
  before(async () => {
    context = await sharedTestContext();
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

  it('is written down in the README as the code has it (npm run docs:permissions)', () => {
    const readme = readFileSync(path.join(context.config.rootDir, 'README.md'), 'utf8');
    expect(readmeTable(readme), 'the README table is out of date: run npm run docs:permissions').to.equal(
      permissionsTable(routes() as GuardedRoute[]),
    );
  });
});
