// The API's contracts: request, response and error shapes, imported by the services and the SPAs.
// Plain TypeScript and zod only: nothing here may import Node, a database or a framework.
export * from './domain.js';
export * from './route.js';
export * from './list.js';
export * from './admin/roles.js';
export * from './admin/imports.js';
export * from './admin/users.js';
export * from './admin/groups.js';
export * from './admin/tenants.js';
export * from './admin/areas.js';
export * from './admin/applications.js';
export * from './admin/me.js';
export * from './admin/dashboard.js';
export * from './account/sign-in.js';
export * from './account/external-login.js';
export * from './portal/profile.js';
export * from './portal/applications.js';
export * from './portal/config.js';
export * from './docs.js';
export * from './errors.js';
export * from './messages.js';
export { ALL_ROUTES } from './all-routes.js';
