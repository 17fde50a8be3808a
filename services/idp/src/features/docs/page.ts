import { type OpenApiDocument } from '@gatehouse/core/http';
import { escapeHtml } from '@gatehouse/core/mail';

/** The page's one stylesheet, allowed by the nonce of its answer. */
const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6fa;color:#1f2937}
main{max-width:1080px;margin:0 auto;padding:32px 24px}h1{margin:0 0 4px}header p{color:#4b5563}
nav{display:flex;flex-wrap:wrap;gap:8px;margin:16px 0 24px}nav a{color:#1d4ed8;text-decoration:none}
section{background:#fff;border-radius:10px;box-shadow:0 4px 14px rgba(15,23,42,.06);margin:0 0 12px;padding:0}
summary{cursor:pointer;padding:12px 16px;display:flex;gap:12px;align-items:baseline}
.method{font:600 .8rem ui-monospace,monospace;min-width:56px;text-align:center;border-radius:4px;padding:2px 6px;color:#fff}
.GET{background:#0f766e}.POST{background:#1d4ed8}.PUT{background:#b45309}.PATCH{background:#7c3aed}.DELETE{background:#b91c1c}
code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{background:#f8fafc;border-radius:6px;padding:10px;overflow:auto;margin:4px 0 12px}
.body{padding:0 16px 12px}.who{color:#4b5563;font-size:.9rem}h3{font-size:.95rem;margin:12px 0 4px}
`;

interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  externalDocs?: { url: string; description?: string };
  tags: string[];
  parameters?: Array<{ name: string; in: string; required: boolean; schema: unknown }>;
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown; example?: unknown }> }>;
  'x-roles'?: string;
  'x-caller'?: string;
  security?: unknown[];
}

const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

function contentOf(content: Record<string, { schema?: unknown; example?: unknown }> | undefined): string {
  return Object.entries(content ?? {})
    .map(([type, { schema, example }]) => `<p><code>${escapeHtml(type)}</code></p>${schema ? json(schema) : ''}${example === undefined ? '' : `<p>Example</p>${json(example)}`}`)
    .join('');
}

function operationHtml(path: string, method: string, op: Operation): string {
  const who = op['x-roles'] ? `Roles: ${op['x-roles']}` : (op['x-caller'] ?? (op.security?.length ? 'Any signed-in caller' : 'Public'));
  const about = `${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}${
    op.externalDocs ? `<p>See <a href="${escapeHtml(op.externalDocs.url)}">${escapeHtml(op.externalDocs.description ?? op.externalDocs.url)}</a></p>` : ''
  }`;
  const parameters = (op.parameters ?? []).map((p) => `<li><code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ', required' : ''}) ${json(p.schema)}</li>`).join('');
  const responses = Object.entries(op.responses)
    .map(([status, r]) => `<h3>${status}: ${escapeHtml(r.description)}</h3>${contentOf(r.content)}`)
    .join('');
  return `<section id="${escapeHtml(op.operationId)}"><details><summary><span class="method ${method.toUpperCase()}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code><span>${escapeHtml(op.summary)}</span></summary>
<div class="body"><p class="who">${escapeHtml(who)} · <code>${escapeHtml(op.operationId)}</code></p>${about}
${parameters ? `<h3>Parameters</h3><ul>${parameters}</ul>` : ''}${op.requestBody ? `<h3>Request body</h3>${contentOf(op.requestBody.content)}` : ''}${responses}</div></details></section>`;
}

/** The API document as a page a person can read: one folding section per operation, grouped by tag. */
export function renderApiPage(document: OpenApiDocument, styleNonce: string): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Operation })),
  );
  const tags = [...new Set(operations.map(({ op }) => op.tags[0] ?? ''))];
  const groups = tags.map(
    (tag) => `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${operations
      .filter(({ op }) => op.tags[0] === tag)
      .map(({ path, method, op }) => operationHtml(path, method, op))
      .join('\n')}`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title><style nonce="${styleNonce}">${STYLE}</style></head>
<body><main><header><h1>${escapeHtml(document.info.title)}</h1><p>${escapeHtml(document.info.description ?? '')}</p>
<p>OpenAPI ${document.openapi}: <a href="/api/docs/openapi.json">openapi.json</a> · ${operations.length} operations</p></header>
<nav>${tags.map((tag) => `<a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join('')}</nav>${groups.join('\n')}</main></body></html>`;
}
