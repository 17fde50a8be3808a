// Writes the README's admin API permission table from the routes and ENDPOINT_ROLES: `npm run docs:permissions`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdminContext } from '../services/admin-api/src/admin-context.js';
import { accountRouter, adminRouter } from '../services/admin-api/src/app.js';
import { guardedRoutes, permissionsTable, withTable, type GuardedRoute } from '../services/admin-api/src/auth/permissions-table.js';
import { createTestContext, disposeTestContexts } from '@gatehouse/core/testing';

// The routers are built on a throwaway context (embedded, unless DATABASE_URL says otherwise); nothing is stored.
const context = createAdminContext(await createTestContext({ migrate: false }));
try {
  const routes = guardedRoutes([adminRouter(context), accountRouter(context)]);
  const unguarded = routes.filter((route) => !route.endpoint);
  if (unguarded.length) throw new Error(`unguarded routes: ${unguarded.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../README.md');
  writeFileSync(readme, withTable(readFileSync(readme, 'utf8'), permissionsTable(routes as GuardedRoute[])));
  console.log(`README permission table: ${routes.length} calls`);
} finally {
  await disposeTestContexts();
}
