import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { rightsRequestsRoutes } from '@gatehouse/contracts';
import type { Context } from 'koa';
import { adminRoutes } from '../../http/route.js';
import { RightsRequestsService, type RightsRequestDownload } from './service.js';

/**
 * Answers a document as a download, never shown in the browser: an attachment (its name encoded as
 * RFC 6266 says), of the media type its content was recognised as, not sniffed, not cached.
 */
function sendDocument(ctx: Context, document: RightsRequestDownload): void {
  ctx.attachment(document.fileName);
  ctx.type = document.contentType;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
  // Opened by mistake in a tab, a document runs nothing.
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.body = document.content;
}

/** `/api/v1/admin/rightsRequests`: the data-protection rights requests sent from the portal (Administrators). */
export function rightsRequestRoutes(context: AppContext, service = new RightsRequestsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, rightsRequestsRoutes.list, async ({ query }) => service.list(query));
  bind(router, rightsRequestsRoutes.get, async ({ params }) => service.get(params.id));
  bind(router, rightsRequestsRoutes.file, async ({ ctx, params }) => sendDocument(ctx, await service.file(params.id, params.fileId)));
  return router;
}
