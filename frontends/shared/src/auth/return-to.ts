/** Where the provider sends the browser back with the code, relative to the SPA's base path. */
export const DEFAULT_CALLBACK_PATH = '/auth/callback';

/**
 * The path to come back to after signing in (relative to the SPA's router), kept only if it stays
 * in the SPA: an absolute URL or a protocol-relative '//host' from a tampered state would send
 * the user elsewhere.
 */
export function safeReturnTo(value: unknown, callbackPath = DEFAULT_CALLBACK_PATH): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/';
  }
  // Coming back to the callback itself would try to redeem a used code.
  return value.startsWith(callbackPath) ? '/' : value;
}
