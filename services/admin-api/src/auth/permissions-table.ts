import type Router from '@koa/router';
import { ENDPOINT_ROLES, ENDPOINT_SCOPE, SIGNED_IN, type EndpointName } from './permissions.js';

/** One route of the admin API and the ENDPOINT_ROLES entry guarding it. */
export interface GuardedRoute {
  method: string;
  path: string;
  endpoint: EndpointName;
}

/** Every route of the routers with a method, and the entry its requireRole guard names (undefined when unguarded). */
export function guardedRoutes(routers: readonly Router[]): Array<Omit<GuardedRoute, 'endpoint'> & { endpoint: EndpointName | undefined }> {
  return routers.flatMap((router) =>
    router.stack
      .filter((layer) => layer.methods.length > 0)
      .map((layer) => ({
        method: layer.methods.filter((m) => m !== 'HEAD').join(','),
        path: String(layer.path),
        endpoint: layer.stack.map((fn) => (fn as { endpoint?: EndpointName }).endpoint).find((name) => name && Object.hasOwn(ENDPOINT_ROLES, name)),
      })),
  );
}

/** The README's permission table, generated from the routes and ENDPOINT_ROLES / ENDPOINT_SCOPE. */
export function permissionsTable(routes: readonly GuardedRoute[]): string {
  const rows = routes.map((route) => {
    const roles = ENDPOINT_ROLES[route.endpoint] as readonly string[] | typeof SIGNED_IN;
    const who = roles === SIGNED_IN ? 'any signed-in user' : roles.join(', ');
    return `| \`${route.method} ${route.path}\` | \`${route.endpoint}\` | ${who} | ${(ENDPOINT_SCOPE[route.endpoint] ?? '').replaceAll('|', '\\|')} |`;
  });
  return ['| Call | Endpoint | Roles (any of) | What they see or may touch |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

const TABLE = /(<!-- permissions-table:start[^>]*-->\n)([\s\S]*?)\n?(<!-- permissions-table:end -->)/;

/** The table currently in a README text, or undefined when the markers are missing. */
export function readmeTable(readme: string): string | undefined {
  return TABLE.exec(readme)?.[2];
}

/** The README text with its table replaced. */
export function withTable(readme: string, table: string): string {
  if (!TABLE.test(readme)) throw new Error('README has no permissions-table markers');
  return readme.replace(TABLE, (_match, open: string, _old: string, close: string) => `${open}${table}\n${close}`);
}
