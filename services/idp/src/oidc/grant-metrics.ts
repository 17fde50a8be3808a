import type { Metrics } from '@gatehouse/core';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';

/** The grant types the provider answers; any other value a caller sends is counted as `other`. */
const GRANT_TYPES = new Set([
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:ietf:params:oauth:grant-type:token-exchange',
]);

/** OAuth error codes are snake_case words of the library's own error classes. */
const ERROR_CODE = /^[a-z_]{1,40}$/;

function labelsOf(ctx: KoaContextWithOIDC): { grant_type: string; client: string } {
  const requested = (ctx.oidc?.params as { grant_type?: unknown } | undefined)?.grant_type;
  return {
    grant_type: typeof requested === 'string' && GRANT_TYPES.has(requested) ? requested : 'other',
    // Only a registered client is ever found: the label takes the values configuration allows.
    client: ctx.oidc?.client?.clientId ?? 'unknown',
  };
}

/**
 * Counts the token endpoint's answers by grant type, client and outcome (`success` or the OAuth
 * error), and the reuse of a rotated refresh token: the provider finds it consumed, ends its grant
 * and refuses it (a reuse noticed by the compare-and-set of the store, when two requests race, is
 * counted there).
 */
export function countGrants(provider: Provider, metrics: Metrics): void {
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => metrics.tokenGrants.inc({ ...labelsOf(ctx), outcome: 'success' }));
  provider.on('grant.error', (ctx: KoaContextWithOIDC, error: Error) => {
    const code = (error as { error?: unknown }).error;
    metrics.tokenGrants.inc({ ...labelsOf(ctx), outcome: typeof code === 'string' && ERROR_CODE.test(code) ? code : 'other' });
    if (error instanceof errors.InvalidGrant && ctx.oidc?.entities.RefreshToken?.consumed) metrics.refreshTokenReuse.inc();
  });
  provider.on('server_error', (ctx: KoaContextWithOIDC) => {
    if (ctx.oidc?.route === 'token') metrics.tokenGrants.inc({ ...labelsOf(ctx), outcome: 'server_error' });
  });
}
