/** Where the provider sends the browser back with the code, relative to the SPA's base path. */
export const DEFAULT_CALLBACK_PATH = '/auth/callback';

/** Browsers drop tab, CR and LF from URLs ("/\t/evil" becomes "//evil") and read "\" as "/". */
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/**
 * The path to come back to after signing in (relative to the SPA's router), kept only if it stays
 * in the SPA: an absolute URL or a protocol-relative '//host' from a tampered state would send
 * the user elsewhere.
 */
export function safeReturnTo(value: unknown, callbackPath = DEFAULT_CALLBACK_PATH): string {
  if (typeof value !== 'string' || !value.startsWith('/') || UNSAFE.test(value) || value.startsWith('//')) return '/';
  // Coming back to the callback itself would try to redeem a used code.
  return value.startsWith(callbackPath) ? '/' : value;
}

/**
 * The path, query and fragment of `value` (absolute, or relative to this page) when it stays on
 * this site; undefined for anything that could leave it. Every address an API answer or a query
 * string gives goes through it before the browser is sent there.
 */
export function sameOriginPath(value: string | null | undefined, origin = window.location.origin): string | undefined {
  if (!value || UNSAFE.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  const path = url.pathname + url.search + url.hash;
  // "/..//evil.example" resolves to the path "//evil.example", which a browser reads as a host.
  return path.startsWith('//') ? undefined : path;
}
