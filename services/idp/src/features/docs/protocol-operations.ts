import type { OpenApiDocument, OpenApiTag } from '@gatehouse/core/http';

/**
 * The operations the product serves outside its route contracts: the OpenID Connect provider
 * (oidc-provider, mounted at /oidc with its default routes and the features provider.ts enables)
 * and the health and metrics endpoints every service answers. Their shapes are the standards'
 * own; each links to the text that defines it.
 */

type Schema = Record<string, unknown>;

const OIDC = '/oidc';

export const PROTOCOL_TAGS: OpenApiTag[] = [
  {
    name: 'oidc',
    description: 'The OpenID Connect provider: discovery, keys, authorization, tokens and sessions, under /oidc',
    externalDocs: { url: 'https://openid.net/specs/openid-connect-core-1_0.html', description: 'OpenID Connect Core 1.0' },
  },
  {
    name: 'health',
    description: 'Liveness, readiness and metrics for the platform running the product',
    externalDocs: { url: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/', description: 'Liveness and readiness probes' },
  },
];

export const PROTOCOL_SECURITY_SCHEMES: Record<string, unknown> = {
  clientSecretBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'An application authenticating with its client_id and secret (RFC 6749 §2.3.1). The same credentials may come in the form instead (`client_secret_post`), or a signed `client_assertion` (`private_key_jwt`); a public application sends only its `client_id`.',
  },
  oidcAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token the provider issued to the application (`Authorization: DPoP` with a proof for a DPoP-bound one)',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'METRICS_TOKEN, when the deployment sets one; the loopback METRICS_PORT needs none',
  },
};

/** A client authenticates in the header, in the form, or (a public client) not at all. */
const CLIENT_AUTHENTICATION = [{ clientSecretBasic: [] }, {}];
const APPLICATION_CALLER = 'An application, authenticated as its registration says (secret, signed assertion, or none for a public one)';

const OAUTH_ERROR: Schema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_token', 'access_denied', 'slow_down', 'authorization_pending', 'expired_token', 'invalid_dpop_proof', 'use_dpop_nonce'] },
    error_description: { type: 'string', example: 'grant request is invalid' },
  },
};

const json = (schema: Schema) => ({ 'application/json': { schema } });
const form = (schema: Schema) => ({ 'application/x-www-form-urlencoded': { schema } });
const html = { 'text/html': { schema: { type: 'string', description: 'An HTML page' } } };

const oauthError = (description: string) => ({ description, content: json(OAUTH_ERROR) });
const redirect = (description: string) => ({
  description,
  headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string', format: 'uri' } } },
});
const spec = (url: string, description: string) => ({ url, description });

const AUTHORIZATION_PARAMETERS: Schema = {
  type: 'object',
  required: ['client_id'],
  properties: {
    client_id: { type: 'string', example: 'billing' },
    response_type: { type: 'string', enum: ['code'] },
    redirect_uri: { type: 'string', format: 'uri', example: 'https://billing.example.com/callback' },
    scope: { type: 'string', example: 'openid profile email' },
    state: { type: 'string', example: 'af0ifjsldkj' },
    nonce: { type: 'string', example: 'n-0S6_WzA2Mj' },
    code_challenge: { type: 'string', example: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' },
    code_challenge_method: { type: 'string', enum: ['S256'] },
    prompt: { type: 'string', enum: ['login', 'consent', 'none'] },
    login_hint: { type: 'string', example: 'ada@example.com' },
    resource: { type: 'string', format: 'uri', example: 'https://api.example.com' },
    request_uri: { type: 'string', description: 'A pushed request (PAR) or a request object by reference', example: 'urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c' },
    request: { type: 'string', description: 'A signed request object (JAR)' },
  },
};

/** The authorization parameters as query parameters, for the GET form of the endpoint. */
const AUTHORIZATION_QUERY = Object.entries(AUTHORIZATION_PARAMETERS.properties as Record<string, Schema>).map(([name, schema]) => ({
  name,
  in: 'query',
  required: (AUTHORIZATION_PARAMETERS.required as string[]).includes(name),
  schema,
}));

const TOKEN_REQUEST: Schema = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: {
      type: 'string',
      enum: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:token-exchange'],
    },
    code: { type: 'string', example: 'SplxlOBeZQQYbYS6WxSbIA' },
    redirect_uri: { type: 'string', format: 'uri', example: 'https://billing.example.com/callback' },
    code_verifier: { type: 'string', example: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' },
    refresh_token: { type: 'string' },
    device_code: { type: 'string' },
    scope: { type: 'string', example: 'openid profile email' },
    resource: { type: 'string', format: 'uri' },
    subject_token: { type: 'string', description: 'Token exchange (RFC 8693): the user token to exchange' },
    subject_token_type: { type: 'string', enum: ['urn:ietf:params:oauth:token-type:access_token'] },
    audience: { type: 'string', description: 'Token exchange: the application the new token is for' },
    client_id: { type: 'string', example: 'billing' },
    client_secret: { type: 'string' },
    client_assertion_type: { type: 'string', enum: ['urn:ietf:params:oauth:client-assertion-type:jwt-bearer'] },
    client_assertion: { type: 'string' },
  },
};

const TOKEN_RESPONSE: Schema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: { type: 'string', example: 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImstMjAyNS0wMyJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl' },
    token_type: { type: 'string', enum: ['Bearer', 'DPoP'] },
    expires_in: { type: 'integer', minimum: 1, example: 3600 },
    refresh_token: { type: 'string', example: 'Xs9Lz3kP0qW2mV7tN4rB8cY1' },
    id_token: { type: 'string', example: 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImstMjAyNS0wMyJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl' },
    scope: { type: 'string', example: 'openid profile email' },
    issued_token_type: { type: 'string', description: 'Token exchange: the type of the token issued' },
  },
};

const DISCOVERY: Schema = {
  type: 'object',
  required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported'],
  properties: {
    issuer: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc' },
    authorization_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/auth' },
    token_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/token' },
    userinfo_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/me' },
    jwks_uri: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/jwks' },
    end_session_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/session/end' },
    introspection_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/token/introspection' },
    revocation_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/token/revocation' },
    device_authorization_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/device/auth' },
    pushed_authorization_request_endpoint: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/request' },
    scopes_supported: { type: 'array', items: { type: 'string' }, example: ['openid', 'offline_access', 'profile', 'email', 'roles', 'company'] },
    response_types_supported: { type: 'array', items: { type: 'string' }, example: ['code'] },
    grant_types_supported: { type: 'array', items: { type: 'string' }, example: ['authorization_code', 'refresh_token', 'client_credentials'] },
    subject_types_supported: { type: 'array', items: { type: 'string' }, example: ['public'] },
    id_token_signing_alg_values_supported: { type: 'array', items: { type: 'string' }, example: ['RS256', 'ES256', 'EdDSA'] },
    token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' }, example: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] },
    code_challenge_methods_supported: { type: 'array', items: { type: 'string' }, example: ['S256'] },
  },
};

const JWKS: Schema = {
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kty'],
        properties: {
          kty: { type: 'string', enum: ['RSA', 'EC', 'OKP'] },
          kid: { type: 'string', example: 'k-2025-03' },
          use: { type: 'string', enum: ['sig', 'enc'] },
          alg: { type: 'string', example: 'RS256' },
          n: { type: 'string', example: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw' },
          e: { type: 'string', example: 'AQAB' },
          crv: { type: 'string' },
          x: { type: 'string' },
          y: { type: 'string' },
        },
      },
    },
  },
};

const USERINFO: Schema = {
  type: 'object',
  required: ['sub'],
  properties: {
    sub: { type: 'string', example: 'ada.lovelace' },
    name: { type: 'string', example: 'Ada Lovelace' },
    given_name: { type: 'string', example: 'Ada' },
    family_name: { type: 'string', example: 'Lovelace' },
    email: { type: 'string', example: 'ada@example.com' },
    email_verified: { type: 'boolean' },
  },
  additionalProperties: true,
};

const TOKEN_PARAMETER: Schema = {
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string', example: 'Xs9Lz3kP0qW2mV7tN4rB8cY1' },
    token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
    client_id: { type: 'string', example: 'billing' },
    client_secret: { type: 'string' },
  },
};

const INTROSPECTION: Schema = {
  type: 'object',
  required: ['active'],
  properties: {
    active: { type: 'boolean' },
    client_id: { type: 'string', example: 'billing' },
    sub: { type: 'string', example: 'ada.lovelace' },
    scope: { type: 'string', example: 'openid profile' },
    exp: { type: 'integer', example: 1741948200 },
    iat: { type: 'integer', example: 1741944600 },
    iss: { type: 'string', example: 'https://id.example.com/oidc' },
    aud: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    token_type: { type: 'string', enum: ['Bearer', 'DPoP'] },
  },
};

const END_SESSION: Schema = {
  type: 'object',
  properties: {
    id_token_hint: { type: 'string' },
    post_logout_redirect_uri: { type: 'string', format: 'uri', example: 'https://billing.example.com/signed-out' },
    state: { type: 'string', example: 'af0ifjsldkj' },
    client_id: { type: 'string', example: 'billing' },
    ui_locales: { type: 'string', example: 'en' },
  },
};

const DEVICE_AUTHORIZATION: Schema = {
  type: 'object',
  required: ['device_code', 'user_code', 'verification_uri', 'expires_in'],
  properties: {
    device_code: { type: 'string', example: 'GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS' },
    user_code: { type: 'string', example: 'BCDF-GHJK' },
    verification_uri: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/device' },
    verification_uri_complete: { type: 'string', format: 'uri', example: 'https://id.example.com/oidc/device?user_code=BCDF-GHJK' },
    expires_in: { type: 'integer', minimum: 1, example: 600 },
    interval: { type: 'integer', minimum: 1, example: 5 },
  },
};

const PAR_RESPONSE: Schema = {
  type: 'object',
  required: ['request_uri', 'expires_in'],
  properties: {
    request_uri: { type: 'string', example: 'urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c' },
    expires_in: { type: 'integer', minimum: 1, example: 60 },
  },
};

const HEALTH: Schema = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'] } },
};

const READINESS: Schema = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    checks: {
      type: 'object',
      description: 'Each dependency checked (the database; Redis when configured): `ok`, or `unavailable: <reason>`',
      additionalProperties: { type: 'string' },
      example: { database: 'ok', redis: 'ok' },
    },
  },
};

const DISCOVERY_DOCS = spec('https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig', 'OpenID Connect Discovery 1.0 §4');
const AUTHORIZATION_DOCS = spec('https://openid.net/specs/openid-connect-core-1_0.html#AuthorizationEndpoint', 'OpenID Connect Core 1.0 §3.1.2');
const END_SESSION_DOCS = spec('https://openid.net/specs/openid-connect-rpinitiated-1_0.html', 'OpenID Connect RP-Initiated Logout 1.0');
const USERINFO_DOCS = spec('https://openid.net/specs/openid-connect-core-1_0.html#UserInfo', 'OpenID Connect Core 1.0 §5.3');

const authorization = (method: 'get' | 'post') => ({
  operationId: `oidc.authorization${method === 'get' ? '' : 'Form'}`,
  summary: method === 'get' ? 'Starts a sign-in: the authorization request' : 'Starts a sign-in with the parameters in a form',
  description: 'Sends the browser to the sign-in pages, then back to the redirect URI with a code (or an error) and `iss`. PKCE (S256) is required of public clients and under FAPI 2.0; an application set to require PAR sends only `client_id` and the `request_uri` it pushed.',
  tags: ['oidc'],
  externalDocs: AUTHORIZATION_DOCS,
  security: [],
  ...(method === 'get' ? { parameters: AUTHORIZATION_QUERY } : { requestBody: { required: true, content: form(AUTHORIZATION_PARAMETERS) } }),
  responses: {
    '303': redirect('To the sign-in pages, or back to the redirect URI with `code`, `state` and `iss` (or `error`)'),
    '400': { description: 'A request the provider cannot send back to the application: a page saying why', content: html },
  },
});

const userinfo = (method: 'get' | 'post') => ({
  operationId: `oidc.userinfo${method === 'get' ? '' : 'Form'}`,
  summary: "The signed-in user's claims, as the access token's scopes allow",
  description: 'Answers the claims of the scopes the token was granted (profile, email, roles, company).',
  tags: ['oidc'],
  externalDocs: USERINFO_DOCS,
  security: [{ oidcAccessToken: [] }],
  'x-caller': "An application, with an access token of the user's",
  responses: { '200': { description: "The user's claims", content: json(USERINFO) }, '401': oauthError('No valid access token (`invalid_token`)') },
});

const endSession = (method: 'get' | 'post') => ({
  operationId: `oidc.endSession${method === 'get' ? '' : 'Form'}`,
  summary: 'Ends the provider session (RP-initiated logout)',
  description: 'Asks the user to confirm, ends the session, notifies the applications that gave a back-channel logout URI, and sends the browser to `post_logout_redirect_uri` when it is registered.',
  tags: ['oidc'],
  externalDocs: END_SESSION_DOCS,
  security: [],
  ...(method === 'get'
    ? { parameters: Object.entries(END_SESSION.properties as Record<string, Schema>).map(([name, schema]) => ({ name, in: 'query', required: false, schema })) }
    : { requestBody: { required: true, content: form(END_SESSION) } }),
  responses: {
    '200': { description: 'The confirmation page, or the page saying the user is signed out', content: html },
    '303': redirect('To the registered post-logout redirect URI'),
    '400': { description: 'A request the provider refuses (an unknown redirect URI, a bad id_token_hint): a page saying why', content: html },
  },
});

/** The provider's and the platform's operations, by path, ready for the API document. */
export const PROTOCOL_PATHS: OpenApiDocument['paths'] = {
  [`${OIDC}/.well-known/openid-configuration`]: {
    get: {
      operationId: 'oidc.discovery',
      summary: "The provider's metadata: its endpoints, and the grants, scopes and algorithms it supports",
      description: 'Served from memory with an ETag; the endpoints are named from the host the request came to.',
      tags: ['oidc'],
      externalDocs: DISCOVERY_DOCS,
      security: [],
      responses: { '200': { description: 'The discovery document', content: json(DISCOVERY) }, '304': { description: 'The copy the client holds (If-None-Match) is current' } },
    },
  },
  [`${OIDC}/jwks`]: {
    get: {
      operationId: 'oidc.jwks',
      summary: "The provider's public signing keys",
      description: 'The keys that verify ID tokens, JWT access tokens and signed answers; a rotation adds the new key here before it signs.',
      tags: ['oidc'],
      externalDocs: spec('https://www.rfc-editor.org/rfc/rfc7517#section-5', 'RFC 7517 §5 (JWK Set)'),
      security: [],
      responses: { '200': { description: 'The key set', content: { 'application/jwk-set+json': { schema: JWKS } } }, '304': { description: 'The copy the client holds (If-None-Match) is current' } },
    },
  },
  [`${OIDC}/auth`]: { get: authorization('get'), post: authorization('post') },
  [`${OIDC}/request`]: {
    post: {
      operationId: 'oidc.pushedAuthorizationRequest',
      summary: 'Pushes an authorization request (PAR) and gets the `request_uri` to start it with',
      description: 'Takes the authorization parameters (or a signed `request` object) from an authenticated application; the browser is then sent to /oidc/auth with `client_id` and `request_uri` only.',
      tags: ['oidc'],
      externalDocs: spec('https://www.rfc-editor.org/rfc/rfc9126#section-2', 'RFC 9126 §2'),
      security: CLIENT_AUTHENTICATION,
      'x-caller': APPLICATION_CALLER,
      requestBody: { required: true, content: form(AUTHORIZATION_PARAMETERS) },
      responses: { '201': { description: 'The pushed request, to be used once before it expires', content: json(PAR_RESPONSE) }, '400': oauthError('A request that is not valid'), '401': oauthError('The client failed to authenticate (`invalid_client`)') },
    },
  },
  [`${OIDC}/token`]: {
    post: {
      operationId: 'oidc.token',
      summary: 'Issues tokens: authorization code, refresh token, client credentials, device code or token exchange',
      description: 'A refresh token is rotated at every use. With a DPoP proof the tokens are bound to its key (`token_type: DPoP`); the answer may ask for a nonce (`DPoP-Nonce`).',
      tags: ['oidc'],
      externalDocs: spec('https://www.rfc-editor.org/rfc/rfc6749#section-3.2', 'RFC 6749 §3.2'),
      security: CLIENT_AUTHENTICATION,
      'x-caller': APPLICATION_CALLER,
      requestBody: { required: true, content: form(TOKEN_REQUEST) },
      responses: {
        '200': { description: 'The tokens', content: json(TOKEN_RESPONSE) },
        '400': oauthError('A grant that is not valid, a pending or slowed-down device code, or a DPoP proof to redo'),
        '401': oauthError('The client failed to authenticate (`invalid_client`)'),
      },
    },
  },
  [`${OIDC}/me`]: { get: userinfo('get'), post: userinfo('post') },
  [`${OIDC}/token/introspection`]: {
    post: {
      operationId: 'oidc.introspection',
      summary: 'Tells a client whether a token is active, and what it carries',
      description: 'A client may introspect the tokens issued to it and those naming it as audience; any other token answers `active: false`.',
      tags: ['oidc'],
      externalDocs: spec('https://www.rfc-editor.org/rfc/rfc7662#section-2', 'RFC 7662 §2'),
      security: CLIENT_AUTHENTICATION,
      'x-caller': APPLICATION_CALLER,
      requestBody: { required: true, content: form(TOKEN_PARAMETER) },
      responses: { '200': { description: 'The token, or `active: false`', content: json(INTROSPECTION) }, '400': oauthError('A request that is not valid'), '401': oauthError('The client failed to authenticate (`invalid_client`)') },
    },
  },
  [`${OIDC}/token/revocation`]: {
    post: {
      operationId: 'oidc.revocation',
      summary: 'Revokes a token the client was issued',
      description: 'A client may revoke only its own tokens; revoking a refresh token ends the grant it belongs to.',
      tags: ['oidc'],
      externalDocs: spec('https://www.rfc-editor.org/rfc/rfc7009#section-2', 'RFC 7009 §2'),
      security: CLIENT_AUTHENTICATION,
      'x-caller': APPLICATION_CALLER,
      requestBody: { required: true, content: form(TOKEN_PARAMETER) },
      responses: { '200': { description: 'Revoked, or unknown: the answer is the same' }, '400': oauthError('A request that is not valid'), '401': oauthError('The client failed to authenticate (`invalid_client`)') },
    },
  },
  [`${OIDC}/session/end`]: { get: endSession('get'), post: endSession('post') },
  [`${OIDC}/device/auth`]: {
    post: {
      operationId: 'oidc.deviceAuthorization',
      summary: 'Starts a sign-in on a device: a device code to poll with and a user code to type elsewhere',
      description: 'For applications allowed to sign in on devices. The device polls /oidc/token with the device code while the user confirms the code at `verification_uri`.',
      tags: ['oidc'],
      externalDocs: spec('https://www.rfc-editor.org/rfc/rfc8628#section-3.1', 'RFC 8628 §3.1'),
      security: CLIENT_AUTHENTICATION,
      'x-caller': APPLICATION_CALLER,
      requestBody: {
        required: true,
        content: form({ type: 'object', required: ['client_id'], properties: { client_id: { type: 'string', example: 'tv-app' }, scope: { type: 'string', example: 'openid profile' } } }),
      },
      responses: {
        '200': { description: 'The codes', content: json(DEVICE_AUTHORIZATION) },
        '400': oauthError('A request that is not valid, or an application not allowed the device grant'),
        '401': oauthError('The client failed to authenticate (`invalid_client`)'),
        '429': { ...oauthError('Too many requests by this application from this address (`slow_down`): try again after Retry-After'), headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } },
      },
    },
  },
  '/health/live': {
    get: {
      operationId: 'health.live',
      summary: 'Whether the process is up (it answers)',
      description: 'Checks nothing else: a failure means the process should be restarted.',
      tags: ['health'],
      externalDocs: spec('https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/', 'Liveness probes'),
      security: [],
      responses: { '200': { description: 'The process answers', content: json(HEALTH) } },
    },
  },
  '/health/ready': {
    get: {
      operationId: 'health.ready',
      summary: 'Whether the service can serve: its database (and Redis when configured) answer within 2 seconds',
      description: 'A load balancer sends traffic only to a ready node.',
      tags: ['health'],
      externalDocs: spec('https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/', 'Readiness probes'),
      security: [],
      responses: { '200': { description: 'Ready', content: json(READINESS) }, '503': { description: 'A dependency does not answer: the checks say which', content: json(READINESS) } },
    },
  },
  '/metrics': {
    get: {
      operationId: 'health.metrics',
      summary: 'The Prometheus metrics of this node',
      description:
        'On the public port: with METRICS_TOKEN as a bearer token when one is set; without a token in development and test, never in production (404). The loopback METRICS_PORT serves it without one.',
      tags: ['health'],
      externalDocs: spec('https://prometheus.io/docs/instrumenting/exposition_formats/', 'Prometheus exposition formats'),
      security: [{ metricsToken: [] }, {}],
      'x-caller': 'A metrics scraper',
      responses: {
        '200': {
          description: 'The metrics in the Prometheus text format',
          content: { 'text/plain': { schema: { type: 'string' }, example: '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1.25\n' } },
        },
        '401': { description: 'METRICS_TOKEN is set and the request does not carry it' },
        '404': { description: 'In production with no METRICS_TOKEN set: not served on the public port' },
      },
    },
  },
};
