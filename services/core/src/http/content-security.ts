import { createHash, randomFillSync } from 'node:crypto';

/**
 * The one stylesheet of the server-rendered pages (provider errors, sign-out, Microsoft sign-in
 * outcomes). It never changes, so the policies allow it by its hash rather than any inline style.
 */
export const PAGE_STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6fa;color:#1f2937;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 10px 30px rgba(15,23,42,.08);padding:40px;max-width:480px;text-align:center}
h1{font-size:1.4rem;margin:0 0 12px}p{color:#4b5563;line-height:1.5}
a,button{display:inline-block;margin-top:16px;padding:10px 22px;border-radius:6px;background:#1d4ed8;color:#fff;text-decoration:none;border:0;font-size:1rem;cursor:pointer}
`;

const PAGE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

const NONCE_BYTES = 16;
/** Random bytes drawn once for many nonces: one system call per 256 of them, not one each. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/**
 * A fresh value for one answer's `nonce` attributes: 128 bits of the system's CSPRNG, each byte
 * used once. Drawn from a pool, as Node's randomUUID does: `randomBytes(16)` per answer costs a
 * system call (several microseconds) on every provider answer, JSON ones included.
 */
export function cspNonce(): string {
  if (nonceOffset + NONCE_BYTES > noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString('base64', nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

/**
 * The policy of a server-rendered page: nothing loads but its stylesheet and the scripts carrying
 * `scriptNonce`, and no site may frame it. `formAction: false` leaves form targets open, for the
 * provider's pages whose forms end at an application (sign-out, form_post).
 */
export function pageContentSecurityPolicy(options: { scriptNonce?: string; formAction?: boolean } = {}): string {
  return [
    "default-src 'none'",
    `script-src ${options.scriptNonce ? `'nonce-${options.scriptNonce}'` : "'none'"}`,
    `style-src ${PAGE_STYLE_SOURCE}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    ...(options.formAction === false ? [] : ["form-action 'self'"]),
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Answers that set no policy of their own (JSON, pages without scripts) get the strictest one. */
export const DEFAULT_CONTENT_SECURITY_POLICY = pageContentSecurityPolicy();

/**
 * The SPAs' policy: their own scripts only; styles from their files or carrying this answer's
 * nonce (the component library inserts its styles at run time, each `<style>` with the nonce).
 * No site may frame the page, unless `framedBySelf`: then this site's own pages may.
 */
export function spaContentSecurityPolicy(styleNonce: string, options: { secure?: boolean; framedBySelf?: boolean } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // 'report-sample': a refused style names itself (its first characters) in the violation report.
    `style-src 'self' 'nonce-${styleNonce}' 'report-sample'`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    options.framedBySelf ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    ...(options.secure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** HSTS for a year, subdomains included, on every answer given over TLS. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';
