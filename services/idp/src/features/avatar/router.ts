import Router from '@koa/router';
import { avatarRoutes as routes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { AvatarService, type ServedPicture } from './service.js';
import { pictureUploadReader } from './upload.js';

/**
 * A versioned address (`v`, the picture's content hash, as the profile and the upload give it)
 * never changes: cached for good. The bare address (which relying applications build from the
 * e-mail alone) changes with every upload: revalidated each time by its ETag (a 304, no bytes).
 */
const VERSIONED_CACHE = 'public, max-age=31536000, immutable';
const BARE_CACHE = 'public, no-cache';

/**
 * The headers every picture answer carries, whoever's it is (or the default): the same set, so
 * that a user without a picture and an unknown hash cannot be told apart by their shape.
 */
function pictureHeaders(ctx: Context, picture: ServedPicture, versioned: boolean): void {
  ctx.set('Cache-Control', versioned ? VERSIONED_CACHE : BARE_CACHE);
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

  // The token is checked before a byte of the upload is read. The picture the user shows is theirs
  // to choose: never changed by a God user signed in as them.
  router.use(routes.upload.path, koaAccountAuth(context, host));
  bind(router, routes.upload, notWhileActing(async ({ ctx }) => service.upload(ctx.state.accountId as string, await readPicture(ctx))));

  // Public, since an <img> sends no token.
  bind(router, routes.picture, async ({ ctx, params, query }) => {
    const picture = await service.picture(params.hash, query.size);
    pictureHeaders(ctx, picture, Boolean(query.v) && picture.version === query.v);
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
