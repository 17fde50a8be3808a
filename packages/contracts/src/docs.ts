import type { RouteContract } from './route.js';
import { defineRoute } from './route.js';

/** The start of the document, for its own example. */
const DOCUMENT_EXAMPLE = { openapi: '3.1.0', info: { title: 'Gatehouse API', version: '1' }, paths: {} };

/** The API document, generated from these contracts. */
export const docsRoutes = {
  document: defineRoute({
    method: 'GET',
    path: '/api/docs',
    endpoint: 'docs.document',
    access: 'public',
    summary: 'The OpenAPI 3.1 document of every route; a browser asking for HTML gets it as a readable page',
    produces: 'application/json',
    examples: { response: DOCUMENT_EXAMPLE },
  }),
  json: defineRoute({
    method: 'GET',
    path: '/api/docs/openapi.json',
    endpoint: 'docs.json',
    access: 'public',
    summary: 'The OpenAPI 3.1 document of every route, always as JSON',
    produces: 'application/json',
    examples: { response: DOCUMENT_EXAMPLE },
  }),
} satisfies Record<string, RouteContract>;
