import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context, Next } from 'koa';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Answers worth compressing: JSON, HTML, text, scripts, styles, SVG. */
const COMPRESSIBLE = /^(application\/(json|[\w.+-]*\+json|javascript)|text\/|image\/svg\+xml)/;

/** Brotli at a quality fit for answers made per request (11 is for files compressed once, at build). */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

function bytesOf(body: unknown): Buffer | undefined {
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  // Streams (files sent by the SPA middleware, precompressed at build) are left as they are.
  if (body === null || typeof body !== 'object' || typeof (body as { pipe?: unknown }).pipe === 'function') return undefined;
  return Buffer.from(JSON.stringify(body));
}

/**
 * Compresses answers made in memory (JSON above all) of at least `threshold` bytes, with brotli
 * or gzip as the caller accepts, and says `Vary: Accept-Encoding` on every compressible answer.
 * Written with node:zlib: one small middleware instead of a dependency.
 */
export function koaCompress(options: { threshold?: number } = {}) {
  const threshold = options.threshold ?? 1024;
  return async function compress(ctx: Context, next: Next) {
    await next();
    if (ctx.respond === false || !COMPRESSIBLE.test(ctx.response.type)) return;
    ctx.vary('Accept-Encoding');
    // No Accept-Encoding (most API clients): nothing to negotiate.
    if (ctx.method === 'HEAD' || !ctx.req.headers['accept-encoding'] || ctx.response.get('Content-Encoding')) return;
    // Brotli whenever accepted: browsers list it after gzip ("gzip, deflate, br"). Decided first:
    // a caller that accepts neither (most API clients) costs no serialisation here.
    const encoding = ctx.acceptsEncodings('br', 'identity') === 'br' ? 'br' : ctx.acceptsEncodings('gzip', 'identity') === 'gzip' ? 'gzip' : undefined;
    if (!encoding) return;
    const data = bytesOf(ctx.body);
    if (!data) return;
    if (data.length < threshold) {
      // Serialised once: Koa sends these bytes rather than stringifying the body again.
      if (!Buffer.isBuffer(ctx.body)) ctx.body = data;
      return;
    }
    ctx.body = encoding === 'br' ? await brotli(data, BROTLI_OPTIONS) : await gzipped(data);
    ctx.set('Content-Encoding', encoding);
  };
}
