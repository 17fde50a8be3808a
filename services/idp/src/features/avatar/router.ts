import Router from '@koa/router';
import { avatarRoutes as routes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { AvatarService, type ServedPicture } from './service.js';
import { pictureUploadReader } from './upload.js';

/** A day: a new picture gets a new address (`v`), so the old one may stay cached. */
const CACHE_CONTROL = 'public, max-age=86400';

/**
 * The headers every picture answer carries, whoever's it is (or the default): the same set, so
 * that a user without a picture and an unknown hash cannot be told apart by their shape.
 */
function pictureHeaders(ctx: Context, picture: ServedPicture): void {
  ctx.set('Cache-Control', CACHE_CONTROL);
  ctx.set('ETag', picture.etag);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Disposition', 'inline');
  // Only pixels are served; should a browser ever render it as a page, it may do nothing.
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
}

/** `POST /api/v1/profile/avatar` (the signed-in user) and `GET /api/v1/avatar/:hash` (public, like Gravatar). */
export function avatarRoutes(context: AppContext, host: ProviderHost, service = new AvatarService(context)): Router {
  const router = new Router();
  const readPicture = pictureUploadReader(context.config.avatar.maxBytes);

  // The token is checked before a byte of the upload is read.
  router.use(routes.upload.path, koaAccountAuth(context, host));
  bind(router, routes.upload, async ({ ctx }) => service.upload(ctx.state.accountId as string, await readPicture(ctx)));

  // Public, since an <img> sends no token; cached a day, revalidated by its ETag.
  bind(router, routes.picture, async ({ ctx, params, query }) => {
    const picture = await service.picture(params.hash, query.size);
    pictureHeaders(ctx, picture);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = picture.contentType;
    ctx.body = await picture.render();
  });

  return router;
}
