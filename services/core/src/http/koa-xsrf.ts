import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { AppError } from '../errors/app-error.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Double-submit protection for cookie-authenticated endpoints: a random token in a cookie the page
 * can read (and another site cannot), echoed in a header on every state-changing request.
 * Requests carrying an access token (Bearer or DPoP) are not exposed to cross-site forgery and skip
 * the check.
 */
export function koaXsrf() {
  return async function xsrf(ctx: Context, next: Next) {
    let token = ctx.cookies.get(XSRF_COOKIE);
    if (!token || !TOKEN.test(token)) {
      token = randomBytes(32).toString('base64url');
      ctx.cookies.set(XSRF_COOKIE, token, { httpOnly: false, sameSite: 'strict', secure: ctx.secure, path: '/', overwrite: true });
      ctx.state.xsrfIssued = true;
    }
    if (UNSAFE.has(ctx.method) && !/^(Bearer|DPoP) /i.test(ctx.get('authorization'))) {
      const header = ctx.get(XSRF_HEADER);
      const valid =
        !ctx.state.xsrfIssued && header.length === token.length && timingSafeEqual(Buffer.from(header), Buffer.from(token));
      if (!valid) throw new AppError('errors.xsrf', 403);
    }
    await next();
  };
}
