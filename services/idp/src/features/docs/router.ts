import Router from '@koa/router';
import { docsRoutes } from '@gatehouse/contracts';
import { cspNonce } from '@gatehouse/core/http';
import { bind } from '../../http/route.js';
import { apiDocument } from './document.js';
import { renderApiPage } from './page.js';

/** `/api/docs`: the API document, as JSON for programs and as a page for a browser. */
export function apiDocsRoutes(): Router {
  const router = new Router();
  bind(router, docsRoutes.document, async ({ ctx }) => {
    ctx.vary('Accept');
    if (ctx.accepts('json', 'html') !== 'html') {
      ctx.body = apiDocument();
      return;
    }
    const nonce = cspNonce();
    ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    ctx.type = 'html';
    ctx.body = renderApiPage(apiDocument(), nonce);
  });
  bind(router, docsRoutes.json, async ({ ctx }) => {
    ctx.body = apiDocument();
  });
  return router;
}
