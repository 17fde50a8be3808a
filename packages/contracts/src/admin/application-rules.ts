// The rules of an application's fields, shared by the admin API and the console's forms. Plain
// TypeScript (no zod), so that the console's bundle carries only these few lines.

/** The spec's limits of an application's fields (section 9), and the columns'. */
export const APPLICATION_LIMITS = {
  id: 64,
  name: 200,
  displayName: 200,
  description: 1000,
  url: 2000,
  /** Redirect and post-logout URIs of one application. */
  uris: 50,
  /** Public keys of one application's JWKS. */
  jwksKeys: 10,
  /** Applications one application may exchange users' tokens for. */
  exchangeAudiences: 50,
  /** An uploaded icon, decoded. */
  iconBytes: 256 * 1024,
} as const;

/** An application id given at creation: what the database's id column and a URL path segment take. */
export const APPLICATION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** An application name (its OIDC client_id): no spaces, nothing a URL or a log would have to escape. */
export const APPLICATION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** An icon given by name (an icon of the interface's set). */
export const APPLICATION_ICON_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;
/** An uploaded icon: a base64 data URL of a raster image (no SVG: it could carry script). */
export const APPLICATION_ICON_IMAGE_PATTERN = /^data:image\/(png|jpeg|gif|webp|x-icon|vnd\.microsoft\.icon);base64,([A-Za-z0-9+/]+={0,2})$/;

interface ParsedUrl {
  protocol: string;
  hostname: string;
  username: string;
  password: string;
  hash: string;
}

/** The WHATWG URL parser both the server and the browser have. */
function parseUrl(value: string): ParsedUrl | undefined {
  const { URL } = globalThis as unknown as { URL: new (input: string) => ParsedUrl };
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * An address an application may be given (private, public, redirect and post-logout URLs): absolute,
 * https, or http on this computer (localhost, 127.0.0.0/8, [::1]); no credentials in it. A redirect
 * URI (`redirect: true`) has no fragment either (OpenID Connect forbids one).
 */
export function isApplicationUrl(value: string, { redirect = false }: { redirect?: boolean } = {}): boolean {
  if (value !== value.trim() || value.length > APPLICATION_LIMITS.url) return false;
  const url = parseUrl(value);
  if (!url || url.username || url.password) return false;
  if (redirect && (url.hash || value.includes('#'))) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
}
