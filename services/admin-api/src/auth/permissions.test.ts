import { IDENTITY_ROLES, type AppContext } from '@gatehouse/core';
import { sharedTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { adminRouter } from '../app.js';
import { ENDPOINT_ROLES, SIGNED_IN } from './permissions.js';

describe('admin endpoint roles', () => {
  let context: AppContext;
  before(async () => {
    context = await sharedTestContext();
  });

  it('guards every admin route with requireRole naming an entry of ENDPOINT_ROLES', () => {
    const routes = adminRouter(context).stack.filter((layer) => layer.methods.length > 0);
    expect(routes).to.not.be.empty;
    const unguarded = routes
      .filter((layer) => !layer.stack.some((fn) => Object.hasOwn(ENDPOINT_ROLES, (fn as { endpoint?: string }).endpoint ?? '')))
      .map((layer) => `${layer.methods.join(',')} ${layer.path}`);
    expect(unguarded).to.deep.equal([]);
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
    ]);
  });
});
