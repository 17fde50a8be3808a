/** Browsers drop tab, CR and LF from URLs ("/\t/evil" becomes "//evil") and read "\" as "/". */
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/**
 * The path, query and fragment of `value` (absolute, or relative to `origin`) when it stays on
 * `origin`; undefined for anything that could leave it, so a return address from a query string or
 * a request body never sends the browser elsewhere.
 */
export function sameOriginPath(value: string | null | undefined, origin: string): string | undefined {
  if (!value || UNSAFE.test(value)) return undefined;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin) return undefined;
  const path = url.pathname + url.search + url.hash;
  // "/..//evil.example" resolves to the path "//evil.example", which a browser reads as a host.
  return path.startsWith('//') ? undefined : path;
}
