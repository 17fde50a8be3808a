import type { Context, Next } from 'koa';
import { AppError } from '../errors/index.js';

/**
 * The path of the public URL, without its trailing slash: '' when the product is at the root of its
 * host, '/identity' for https://example.com/identity. Everything the product serves is under it.
 */
export function basePathOf(publicUrl: string): string {
  return new URL(publicUrl).pathname.replace(/\/+$/, '');
}

/** The path within the product of a request path, or undefined when the request is outside the base path. */
export function withinBasePath(requestPath: string, base: string): string | undefined {
  if (!base) return requestPath;
  if (requestPath === base) return '/';
  if (requestPath.startsWith(`${base}/`) || requestPath.startsWith(`${base}?`)) return requestPath.slice(base.length);
  return undefined;
}

/** Liveness, readiness and metrics answer at the root too: probes and scrapers address a node, not the public URL. */
const NODE_PATHS = /^\/(health\/|metrics$)/;

/** An address the product wrote as a path from its own root ("/account/login"), as the browser must see it. */
function underBase(value: string, base: string): string {
  if (!value.startsWith('/') || value.startsWith('//') || value === base || value.startsWith(`${base}/`) || value.startsWith(`${base}?`)) return value;
  return value === '/' ? `${base}/` : `${base}${value}`;
}

function cookieUnderBase(cookie: string, base: string): string {
  return cookie.replace(/;\s*path=([^;]*)/i, (attribute, value: string) => {
    const path = value.trim();
    return attribute.replace(value, path === '/' ? base : underBase(path, base));
  });
}

/**
 * Mounts a service under the base path of the public URL: a request under it is routed by its
 * path within the product (so every route keeps its own path), anything else is not found (but
 * for the probes and metrics, which also answer at the root), and the addresses the answer gives
 * as paths from the product's root (redirects, cookie paths) get the base path in front. The
 * original URL stays in `ctx.originalUrl` and `req.originalUrl`, from which the OpenID provider
 * derives its endpoints, and the base path in `ctx.state.basePath`, from which the single-page
 * applications' shells do. Not used at the root of a host.
 */
export function koaBasePath(base: string) {
  return async function basePath(ctx: Context, next: Next) {
    ctx.state.basePath = base;
    const within = withinBasePath(ctx.path, base);
    if (within === undefined) {
      if (NODE_PATHS.test(ctx.path)) return next();
      throw new AppError('errors.not_found', 404);
    }
    // Where a mounted app (the OpenID provider) reads its full path from, as under Express.
    (ctx.req as { originalUrl?: string }).originalUrl = ctx.originalUrl;
    ctx.path = within;
    try {
      await next();
    } finally {
      const location = ctx.response.get('Location');
      if (location) ctx.set('Location', underBase(location, base));
      const cookies = ctx.res.getHeader('Set-Cookie');
      if (Array.isArray(cookies)) ctx.res.setHeader('Set-Cookie', cookies.map((cookie) => cookieUnderBase(cookie, base)));
      else if (typeof cookies === 'string') ctx.res.setHeader('Set-Cookie', cookieUnderBase(cookies, base));
    }
  };
}

/**
 * The links of the pages the services write themselves (error and sign-in pages), which address
 * the product from its root, under the base path. Runs inside the compression, on the page's text.
 */
export function koaBasePathLinks(base: string) {
  return async function basePathLinks(ctx: Context, next: Next) {
    await next();
    if (typeof ctx.body === 'string' && ctx.response.is('html')) {
      ctx.body = ctx.body.replace(/(\s(?:href|src|action)=)(["'])(\/[^"']*)\2/g, (_, attribute: string, quote: string, value: string) => `${attribute}${quote}${underBase(value, base)}${quote}`);
    }
  };
}
