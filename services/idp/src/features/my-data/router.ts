import Router from '@koa/router';
import { myDataRoutes as routes } from '@gatehouse/contracts';
import { LANGUAGES, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { MyDataService } from './service.js';
import { XLSX_CONTENT_TYPE } from './workbook.js';

const LANGUAGE_BASES = new Set(LANGUAGES.map((language) => language.split('-')[0]!.toLowerCase()));

/** The caller's language when Accept-Language names one the product has; undefined otherwise (none, or `*`). */
function namedLanguage(ctx: Context): string | undefined {
  const tags = ctx.get('accept-language').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  return tags.some((tag) => LANGUAGE_BASES.has(tag.split('-')[0]!)) ? (ctx.state.language as string) : undefined;
}

/** `name` in ASCII, for clients that do not read the RFC 6266 `filename*` (accents dropped). */
function asciiFallback(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');
}

/** `GET /api/v1/profile/myData`: the signed-in user's own data, as a workbook. */
export function myDataRoutes(context: AppContext, host: ProviderHost, service = new MyDataService(context)): Router {
  const router = new Router();
  router.use(routes.download.path, koaAccountAuth(context, host));

  // In the language the portal sends; without one, in the user's preferred language. Asking for
  // one's own data is a data-protection request: never made by a God user signed in as the user.
  bind(
    router,
    routes.download,
    notWhileActing(async ({ ctx }) => {
      const file = await service.download(ctx.state.accountId as string, namedLanguage(ctx), ctx.state.log);
      ctx.attachment(file.fileName, { fallback: asciiFallback(file.fileName) });
      ctx.type = XLSX_CONTENT_TYPE;
      // Personal data: never kept by a cache, shared or not.
      ctx.set('Cache-Control', 'no-store');
      ctx.body = file.body;
    }),
  );

  return router;
}
