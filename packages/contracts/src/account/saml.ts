import { z } from 'zod';
import { defineRoute, type RouteContract } from '../route.js';

/** A value the handler reads only when it is a single string: the refusals are SAML pages of their own. */
const text = z.string().optional().catch(undefined);

/** An AuthnRequest from https://hr.example.com/saml: deflated then base64 (HTTP-Redirect), or base64 alone (HTTP-POST). */
const EXAMPLE_REDIRECT_REQUEST =
  'fZFPS8QwEMW/Ssi9bVpZ/wxtoboHCyuWbfXgRbLZ0QaapGZS2Y8v21VcEXoc5v3mzePlJM0wQjWF3m7xY0IK7GAGSzAvCj55C06SJrDSIEFQ0FYPG8hiAaN3wSk38DNkmZBE6IN2lrN6XfDXa5W+reQVZjvOntGTdrbgWSw4q4kmrC0FaUPBM5FdRiKN0lUnbuBCgBAvnK2RgrYyzFQfwkiQJHof40GaccBYOZMcf0qIHGfVj/edszQZ9C36T63wabv5pXv/n5aKOGu+s95qu9f2fTnm7iQiuO+6Jmoe246X+fEWzLF8uWCXJ+fC0/S3oPIL';
const EXAMPLE_POST_REQUEST =
  'PHNhbWxwOkF1dGhuUmVxdWVzdCB4bWxuczpzYW1scD0idXJuOm9hc2lzOm5hbWVzOnRjOlNBTUw6Mi4wOnByb3RvY29sIiB4bWxuczpzYW1sPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6YXNzZXJ0aW9uIiBJRD0iXzhjMWY1YTdlMmIiIFZlcnNpb249IjIuMCIgSXNzdWVJbnN0YW50PSIyMDI2LTAxLTE1VDA5OjMwOjAwWiIgRGVzdGluYXRpb249Imh0dHBzOi8vaWQuZXhhbXBsZS5jb20vc2FtbC9zc28iIEFzc2VydGlvbkNvbnN1bWVyU2VydmljZVVSTD0iaHR0cHM6Ly9oci5leGFtcGxlLmNvbS9zYW1sL2FjcyIgUHJvdG9jb2xCaW5kaW5nPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6YmluZGluZ3M6SFRUUC1QT1NUIj48c2FtbDpJc3N1ZXI+aHR0cHM6Ly9oci5leGFtcGxlLmNvbS9zYW1sPC9zYW1sOklzc3Vlcj48L3NhbWxwOkF1dGhuUmVxdWVzdD4=';

/**
 * The SAML 2.0 identity provider: its metadata, single sign-on (HTTP-Redirect and HTTP-POST
 * bindings) and the return from the product's own sign-in. Browser navigations, answered by a
 * redirect or a page (a refusal is a page saying why, with a 4xx status).
 */
export const samlRoutes = {
  metadata: defineRoute({
    method: 'GET',
    path: '/saml/metadata',
    endpoint: 'saml.metadata',
    access: 'public',
    summary: "The identity provider's SAML 2.0 metadata (entity id, single sign-on bindings, signing certificates), signed",
    produces: 'application/samlmetadata+xml',
  }),
  ssoRedirect: defineRoute({
    method: 'GET',
    path: '/saml/sso',
    endpoint: 'saml.sso_redirect',
    access: 'public',
    summary: "A service provider's AuthnRequest over the HTTP-Redirect binding: the browser goes to the sign-in (303); a request no sign-in can meet (a NameID format not given) gets its signed error response posted back (200); otherwise a page says why not",
    query: z.object({ SAMLRequest: text, RelayState: text, SigAlg: text, Signature: text }),
    examples: { query: { SAMLRequest: EXAMPLE_REDIRECT_REQUEST, RelayState: '/reports' } },
    produces: 'text/html',
  }),
  ssoPost: defineRoute({
    method: 'POST',
    path: '/saml/sso',
    endpoint: 'saml.sso_post',
    access: 'public',
    summary: "A service provider's AuthnRequest over the HTTP-POST binding (a form): the browser goes to the sign-in (303); a request no sign-in can meet (a NameID format not given) gets its signed error response posted back (200); otherwise a page says why not",
    body: z.object({ SAMLRequest: text, RelayState: text }),
    examples: { body: { SAMLRequest: EXAMPLE_POST_REQUEST, RelayState: '/reports' } },
    produces: 'text/html',
  }),
  sloRedirect: defineRoute({
    method: 'GET',
    path: '/saml/slo',
    endpoint: 'saml.slo_redirect',
    access: 'public',
    summary:
      "Single logout over the HTTP-Redirect binding: a service provider's LogoutRequest ends the provider session, the session's other SAML applications are told in turn (their LogoutResponses come back here), then the browser goes to the requester's single logout URL with a signed LogoutResponse (303), or a page says why not",
    query: z.object({ SAMLRequest: text, SAMLResponse: text, RelayState: text, SigAlg: text, Signature: text, resume: text }),
    produces: 'text/html',
  }),
  sloPost: defineRoute({
    method: 'POST',
    path: '/saml/slo',
    endpoint: 'saml.slo_post',
    access: 'public',
    summary: "Single logout over the HTTP-POST binding (a form): a service provider's LogoutRequest, or a LogoutResponse while the identity provider tells the session's applications; the browser is sent on (303), or a page says why not",
    body: z.object({ SAMLRequest: text, SAMLResponse: text, RelayState: text }),
    produces: 'text/html',
  }),
  continue: defineRoute({
    method: 'GET',
    path: '/saml/continue',
    endpoint: 'saml.continue',
    access: 'public',
    summary: 'The return from the sign-in: a page that posts the signed SAML response to the service provider, or says why not',
    query: z.object({ state: text, code: text, error: text }),
    produces: 'text/html',
  }),
  launch: defineRoute({
    method: 'GET',
    path: '/saml/launch/:application',
    endpoint: 'saml.launch',
    access: 'public',
    summary:
      "IdP-initiated sign-in (the portal's tile of a SAML application): the browser signs in if need be (303 to the sign-in), then a page posts an unsolicited signed response to the application's default assertion consumer service; a page says why not (unknown or stopped application, no access)",
    params: z.object({ application: z.string().max(200) }),
    examples: { params: { application: 'wiki' } },
    produces: 'text/html',
  }),
  disclaimer: defineRoute({
    method: 'POST',
    path: '/saml/disclaimer',
    endpoint: 'saml.disclaimer',
    access: 'public',
    summary:
      "The user's answer to a SAML application's disclaimer, shown before its first assertion (a form of the identity provider's page): accepted, the page posting the response; declined, the service provider is answered RequestDenied (from the portal: a page saying why)",
    body: z.object({ state: text, version: z.coerce.number().int().positive().optional().catch(undefined), decision: z.enum(['accept', 'decline']).optional().catch(undefined) }),
    examples: { body: { state: 'b3JkZXItNDI', version: 2, decision: 'accept' } },
    produces: 'text/html',
  }),
} satisfies Record<string, RouteContract>;
