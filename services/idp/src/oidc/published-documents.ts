import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context, Middleware, Next } from 'koa';

/**
 * The provider's published documents: its key set and its discovery document. Both are fixed for
 * the life of one provider instance (keys and configuration are read at construction; a key change
 * builds a new instance, and with it a new PublishedDocuments). The provider renders the first
 * answer; its bytes, compressed once each way, then serve every later request with an ETag, so a
 * client that already holds them gets a 304.
 *
 * The discovery document names the provider's endpoints from the request's origin (the host, and
 * the scheme a trusted proxy reports), so it is kept per origin, for a few origins at most: a
 * request with an unknown Host is still answered by the provider, but never grows the cache.
 */
export class PublishedDocuments {
  private readonly documents = new Map<string, Rendered>();

  constructor(private readonly mountPath = '/oidc') {}

  /** Koa middleware: answers the two documents from memory, and passes anything else to `provider`. */
  middleware(provider: Middleware): Middleware {
    return async (ctx: Context, next: Next) => {
      const kind = ctx.method === 'GET' || ctx.method === 'HEAD' ? this.kindOf(ctx.path) : undefined;
      if (!kind) return provider(ctx, next);
      // The scheme and host the provider names its endpoints from (Koa's ctx.origin is the Origin header).
      const key = kind === 'jwks' ? kind : `${kind} ${ctx.protocol}://${ctx.host}`;
      const kept = this.documents.get(key);
      if (kept) return send(ctx, kept);
      await provider(ctx, next);
      const rendered = render(ctx, kind);
      if (!rendered) return;
      if (kind === 'jwks' || this.hosts < MAX_HOSTS) this.documents.set(key, rendered);
      send(ctx, rendered);
    };
  }

  /** Hosts whose discovery document is kept (the key set is one, whatever the host). */
  private get hosts(): number {
    return this.documents.size - (this.documents.has('jwks') ? 1 : 0);
  }

  private kindOf(path: string): Kind | undefined {
    if (!path.startsWith(this.mountPath)) return undefined;
    const rest = path.slice(this.mountPath.length);
    if (rest === '/jwks') return 'jwks';
    if (rest === '/.well-known/openid-configuration') return 'discovery';
    return undefined;
  }
}

type Kind = 'jwks' | 'discovery';

/** The discovery document of this many hosts, at most. */
const MAX_HOSTS = 8;

/**
 * How long a client may use a copy without asking again. The key set is short: a rotation signs
 * with the new key at once, and a client that does not fetch the set again on an unknown key id
 * would otherwise refuse tokens for that long.
 */
const MAX_AGE_S: Record<Kind, number> = { jwks: 60, discovery: 300 };

interface Rendered {
  kind: Kind;
  type: string;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** The provider's answer as bytes, when it is a document to keep (a 200 with a JSON body). */
function render(ctx: Context, kind: Kind): Rendered | undefined {
  const body: unknown = ctx.body;
  if (ctx.status !== 200 || body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return undefined;
  const identity = Buffer.from(JSON.stringify(body));
  return {
    kind,
    type: ctx.response.get('Content-Type') || 'application/json; charset=utf-8',
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
  };
}

/** The kept document, as the provider answers it (its open CORS included), compressed as accepted. */
function send(ctx: Context, doc: Rendered): void {
  ctx.status = 200;
  ctx.vary('Origin');
  ctx.vary('Accept-Encoding');
  ctx.set('Access-Control-Allow-Origin', ctx.get('Origin') || '*');
  ctx.set('Cache-Control', `public, max-age=${MAX_AGE_S[doc.kind]}`);
  ctx.set('ETag', doc.etag);
  ctx.type = doc.type;
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  // Brotli whenever accepted, then gzip, as the product's compression decides for other answers.
  const encoding = encodingFor(ctx);
  if (encoding === 'identity') ctx.remove('Content-Encoding');
  else ctx.set('Content-Encoding', encoding);
  // The type is already set: Koa keeps it for a Buffer body.
  ctx.body = doc[encoding];
}

function encodingFor(ctx: Context): 'br' | 'gzip' | 'identity' {
  if (!ctx.get('Accept-Encoding')) return 'identity';
  if (ctx.acceptsEncodings('br', 'identity') === 'br') return 'br';
  return ctx.acceptsEncodings('gzip', 'identity') === 'gzip' ? 'gzip' : 'identity';
}
