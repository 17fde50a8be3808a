import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';
import { cspNonce, spaContentSecurityPolicy } from './content-security.js';

export interface SpaOptions {
  /** The build folder (holding index.html). */
  root: string;
  /** URL prefix the SPA is served under: '' for the portal, '/admin' for the console. */
  basePath: string;
  /** Top-level client routes; other paths get index.html with status 404 (the SPA shows not-found). */
  isKnownRoute?: (pathWithinBase: string) => boolean;
  /** Extra headers for the HTML shell of some routes. */
  headersFor?: (pathWithinBase: string) => Record<string, string>;
  /**
   * Routes this site's own pages may show in a frame (the OIDC callback, where a silent sign-in
   * comes back in a hidden frame); no other site may, and every other answer refuses framing.
   */
  framedBySelf?: (pathWithinBase: string) => boolean;
}

/** A build file whose name carries its content hash (`assets/index-B1x_9aZq.js`): it never changes. */
const HASHED = /^\/assets\/.+-[\w-]{6,}\.[a-z0-9]+$/i;

/** Server paths that never fall back to the HTML shell. */
const SERVER_PATHS = /^\/(api|oidc|hubs|health|metrics)(\/|$)/;

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse</title></head>
<body><h1>This page is not built yet</h1><p>Run <code>npm run build</code>, then reload.</p></body></html>`;

/**
 * Serves a single-page application: files from its build, long-cached when their names carry a
 * content hash, and index.html for client-side routes (history fallback), never cached without
 * asking. A file's brotli or gzip twin (`.br`, `.gz`, written at build) is sent to a browser that
 * accepts it.
 */
export function koaSpa(options: SpaOptions) {
  const root = path.resolve(options.root);
  const base = options.basePath;
  return async function spa(ctx: Context, next: Next) {
    const inBase = ctx.path === base || ctx.path.startsWith(`${base}/`);
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !inBase || SERVER_PATHS.test(ctx.path)) {
      return next();
    }
    const within = ctx.path.slice(base.length) || '/';
    ctx.state.routeLabel = `spa:${base || '/'}`;
    if (within !== '/' && path.extname(within)) {
      const served = await send(ctx, within, { root, index: false, hidden: false, brotli: true, gzip: true }).catch((error: { status?: number }) => {
        if (error.status === 404 || error.status === 400) return undefined;
        throw error;
      });
      if (served) {
        ctx.vary('Accept-Encoding');
        ctx.set('Cache-Control', HASHED.test(within) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
        return;
      }
      // A missing file is a 404; it must not turn into the HTML shell.
      return next();
    }
    const nonce = cspNonce();
    ctx.status = options.isKnownRoute && !options.isKnownRoute(within) ? 404 : 200;
    ctx.set('Cache-Control', 'no-cache');
    const framedBySelf = options.framedBySelf?.(within) ?? false;
    ctx.set('Content-Security-Policy', spaContentSecurityPolicy(nonce, { secure: ctx.secure, framedBySelf }));
    if (framedBySelf) ctx.set('X-Frame-Options', 'SAMEORIGIN');
    for (const [name, value] of Object.entries(options.headersFor?.(within) ?? {})) ctx.set(name, value);
    ctx.type = 'html';
    const shell = await readFile(path.join(root, 'index.html'), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    ctx.body = shell === undefined ? NOT_BUILT : withNonce(placed(shell, ctx.state.basePath ?? '', base), nonce);
  };
}

/**
 * The shell as served under the product's base path (`koaBasePath`): the build's files, which a
 * build with a relative base addresses as "./assets/…", addressed from there whatever the page's
 * own path, and a base path other than the root told to the application in
 * `<meta name="gatehouse-base-path">`.
 */
function placed(shell: string, productBase: string, spaBase: string): string {
  const files = shell.replace(/(\s(?:src|href)=")\.\//g, `$1${productBase}${spaBase}/`);
  if (!productBase) return files;
  return headStart(files, `<meta name="gatehouse-base-path" content="${productBase.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}">`);
}

function headStart(shell: string, markup: string): string {
  const head = /<head[^>]*>/i.exec(shell);
  return head ? `${shell.slice(0, head.index + head[0].length)}${markup}${shell.slice(head.index + head[0].length)}` : `${markup}${shell}`;
}

/**
 * The shell with this answer's nonce, where the SPA reads it for the styles it inserts. The
 * `nonce` attribute (not `content`) is hidden from the page's markup and CSS once it has loaded.
 */
function withNonce(shell: string, nonce: string): string {
  return headStart(shell, `<meta property="csp-nonce" nonce="${nonce}">`);
}
