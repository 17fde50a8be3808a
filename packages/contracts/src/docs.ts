import type { RouteContract } from './route.js';
import { defineRoute } from './route.js';

/** The API document, generated from these contracts. */
export const docsRoutes = {
  document: defineRoute({
    method: 'GET',
    path: '/api/docs',
    endpoint: 'docs.document',
    access: 'public',
    summary: 'The OpenAPI 3.1 document of every route; a browser asking for HTML gets it as a readable page',
    produces: 'application/json',
  }),
  json: defineRoute({
    method: 'GET',
    path: '/api/docs/openapi.json',
    endpoint: 'docs.json',
    access: 'public',
    summary: 'The OpenAPI 3.1 document of every route, always as JSON',
    produces: 'application/json',
  }),
} satisfies Record<string, RouteContract>;
