import { ALL_ROUTES, ENDPOINT_ROLES, SIGNED_IN, type EndpointName, type RouteContract } from '@gatehouse/contracts';
import { openApiDocument, type OpenApiDocument } from '@gatehouse/core/http';
import { PROTOCOL_PATHS, PROTOCOL_SECURITY_SCHEMES, PROTOCOL_TAGS } from './protocol-operations.js';

/** Who may call a role-checked route, as the roles table says. */
function rolesOf(contract: RouteContract): string | undefined {
  const roles = ENDPOINT_ROLES[contract.endpoint as EndpointName] as readonly string[] | typeof SIGNED_IN | undefined;
  if (roles === undefined) return undefined;
  return roles === SIGNED_IN ? 'any signed-in user' : roles.join(', ');
}

let cached: OpenApiDocument | undefined;

/**
 * The OpenAPI 3.1 document of the product, generated once: every route of the contracts, and the
 * OpenID Connect, health and metrics endpoints served outside them.
 */
export function apiDocument(): OpenApiDocument {
  cached ??= openApiDocument(
    ALL_ROUTES,
    {
      title: 'Gatehouse API',
      version: '1',
      description:
        'The sign-in, self-service and administration API of the identity provider, with its OpenID Connect endpoints. Errors answer `{ code, message, errors, requestId }` in the language of Accept-Language.',
    },
    { roles: rolesOf, paths: PROTOCOL_PATHS, tags: PROTOCOL_TAGS, securitySchemes: PROTOCOL_SECURITY_SCHEMES },
  );
  return cached;
}
