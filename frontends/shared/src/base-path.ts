/**
 * The path the product is served under (the path of its PUBLIC_URL: "/identity", or "" at the root
 * of its host), as the server's shell tells it in `<meta name="gatehouse-base-path">`.
 */
export function productBasePath(): string {
  return globalThis.document?.querySelector('meta[name="gatehouse-base-path"]')?.getAttribute('content') ?? '';
}

/**
 * A path from the product's root ("/api/v1/config") as the browser asks for it: under the base
 * path. Anything else (a full URL, a path already under the base path) is left as it is.
 */
export function productPath(path: string, base = productBasePath()): string {
  if (!base || !path.startsWith('/') || path.startsWith('//') || path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`)) return path;
  return `${base}${path}`;
}
