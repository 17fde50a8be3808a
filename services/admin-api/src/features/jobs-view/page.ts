import { JOB_STATUSES, JOB_TYPES, JOBS_VIEW_PATH } from '@gatehouse/contracts';
import { escapeHtml as e } from '@gatehouse/core/mail';
import type { JobFilters, JobRow } from './repository.js';
import type { JobDetail, JobsPage, ResultSummary } from './service.js';

/** A phrase of the `jobsView` group (or any server phrase) in the page's language. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/** What every page of the view is written with. */
export interface PageFrame {
  language: string;
  /** This answer's nonce: the one stylesheet carries it, the content policy names it. */
  nonce: string;
  t: Translate;
}

/** A job type's name in the page's language (a type the catalogue does not name, as it is stored). */
function jobName(t: Translate, type: string): string {
  return t(`jobs.types.${type}`, { defaultValue: type });
}

/** The page's one stylesheet. No script: filters are a GET form, paging and details are links. */
const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6fa;color:#1f2937}
main{max-width:1280px;margin:0 auto;padding:24px}h1{margin:0 0 16px;font-size:1.5rem}h2{font-size:1.1rem;margin:0 0 12px}
a{color:#1d4ed8}
.counts{display:flex;flex-wrap:wrap;gap:12px;list-style:none;padding:0;margin:0 0 20px}
.counts a{display:block;background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(15,23,42,.06);padding:10px 16px;text-decoration:none;color:inherit;min-width:110px}
.counts a[aria-current]{outline:2px solid #1d4ed8}.counts strong{display:block;font-size:1.4rem}
.panel{background:#fff;border-radius:10px;box-shadow:0 4px 14px rgba(15,23,42,.06);padding:16px;margin:0 0 16px;overflow:auto}
.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:end;margin:0 0 12px}.filters label{display:flex;flex-direction:column;font-size:.85rem;gap:4px}
select,button{font:inherit;padding:6px 8px;border-radius:6px;border:1px solid #cbd5e1;background:#fff}button{background:#1d4ed8;color:#fff;border-color:#1d4ed8;cursor:pointer}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:8px;border-bottom:1px solid #e5e7eb;vertical-align:top}
th{font-weight:600;color:#4b5563;white-space:nowrap}td.error{max-width:360px;overflow-wrap:anywhere;color:#b91c1c}
.status{display:inline-block;border-radius:10px;padding:1px 8px;font-size:.8rem;background:#e5e7eb}
.status-Running{background:#dbeafe}.status-Succeeded{background:#dcfce7}.status-Failed{background:#fee2e2}.status-Cancelled{background:#f3f4f6}
progress{width:80px;vertical-align:middle}.paging{display:flex;gap:16px;align-items:center;margin-top:12px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0 0 12px}dt{font-weight:600;color:#4b5563}dd{margin:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f8fafc;border-radius:6px;padding:8px;margin:0;font-size:.85rem}
.message{background:#fff;border-radius:12px;box-shadow:0 10px 30px rgba(15,23,42,.08);padding:40px;max-width:480px;margin:10vh auto;text-align:center}
`;

/** The content policy of every answer of the view: its stylesheet by nonce, no script, forms to itself only, never framed. */
export function jobsViewContentSecurityPolicy(nonce: string): string {
  return ["default-src 'none'", `style-src 'nonce-${nonce}'`, "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"].join('; ');
}

function frame(f: PageFrame, title: string, body: string): string {
  return `<!doctype html><html lang="${e(f.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><title>${e(title)}</title><style nonce="${e(f.nonce)}">${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** A page that only says why (the link expired, no permission any more). */
export function renderMessagePage(f: PageFrame, title: string, message: string): string {
  return frame(f, title, `<section class="message"><h1>${e(title)}</h1><p role="alert">${e(message)}</p></section>`);
}

/** The view's own address with these filters, this page and this job (blank ones left out). */
function viewHref(filters: JobFilters, page = 1, job?: string): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.type) params.set('type', filters.type);
  if (page > 1) params.set('page', String(page));
  if (job) params.set('job', job);
  const query = params.toString();
  return e(query ? `${JOBS_VIEW_PATH}?${query}` : JOBS_VIEW_PATH);
}

/** The jobs page: counts per status, the filters, one page of jobs, and the job asked for in detail. */
export function renderJobsPage(f: PageFrame, data: JobsPage): string {
  const { t } = f;
  const dates = new Intl.DateTimeFormat(f.language, { dateStyle: 'short', timeStyle: 'medium', timeZone: 'UTC' });
  const when = (date: Date | null) => (date ? `<time datetime="${e(new Date(date).toISOString())}">${e(dates.format(new Date(date)))}</time>` : '');
  const status = (value: string) => `<span class="status status-${e(value)}">${e(t(`jobsView.statuses.${value}`))}</span>`;
  const requester = (job: JobRow) => {
    if (!job.user_name) return e(t('jobsView.system'));
    const name = [job.first_name, job.last_name].filter((part) => part?.trim()).join(' ');
    return name ? `${e(name)} <small>(${e(job.user_name)})</small>` : e(job.user_name);
  };
  const progress = (job: JobRow) =>
    job.total === null ? e(String(job.progress)) : `<progress value="${e(String(job.progress))}" max="${e(String(Math.max(job.total, 1)))}"></progress> ${e(`${job.progress} / ${job.total}`)}`;

  const counts = `<section aria-labelledby="counts"><h2 id="counts">${e(t('jobsView.counts'))}</h2><ul class="counts">${data.counts
    .map(
      ({ status: s, count }) =>
        `<li><a href="${viewHref({ ...data.filters, status: s })}"${data.filters.status === s ? ' aria-current="true"' : ''}>${e(t(`jobsView.statuses.${s}`))}<strong>${e(String(count))}</strong></a></li>`,
    )
    .join('')}</ul></section>`;

  const options = (values: readonly string[], selected: string | undefined, label: (value: string) => string) =>
    [`<option value="">${e(t('jobsView.all'))}</option>`, ...values.map((v) => `<option value="${e(v)}"${v === selected ? ' selected' : ''}>${e(label(v))}</option>`)].join('');
  const filters = `<form class="filters" method="get" action="${e(JOBS_VIEW_PATH)}" aria-label="${e(t('jobsView.filters'))}">
<label>${e(t('jobsView.status'))}<select name="status">${options(JOB_STATUSES, data.filters.status, (s) => t(`jobsView.statuses.${s}`))}</select></label>
<label>${e(t('jobsView.type'))}<select name="type">${options(JOB_TYPES, data.filters.type, (type) => jobName(t, type))}</select></label>
<button type="submit">${e(t('jobsView.apply'))}</button> <a href="${e(JOBS_VIEW_PATH)}">${e(t('jobsView.clear'))}</a></form>`;

  const columns = ['type', 'status', 'requester', 'created', 'started', 'finished', 'progress', 'error'];
  const rows = data.jobs
    .map(
      (job) => `<tr><td><a href="${viewHref(data.filters, data.page, job.id)}" title="${e(t('jobsView.details'))}">${e(jobName(t, job.type))}</a></td><td>${status(job.status)}</td><td>${requester(job)}</td>
<td>${when(job.created_at)}</td><td>${when(job.started_at)}</td><td>${when(job.finished_at)}</td><td>${progress(job)}</td><td class="error">${e(job.error ?? '')}</td></tr>`,
    )
    .join('\n');
  const table = data.jobs.length
    ? `<table aria-labelledby="jobs"><thead><tr>${columns.map((c) => `<th scope="col">${e(t(`jobsView.columns.${c}`))}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${e(t('jobsView.empty'))}</p>`;
  const paging = `<nav class="paging" aria-label="${e(t('jobsView.pages'))}">${
    data.page > 1 ? `<a rel="prev" href="${viewHref(data.filters, Math.min(data.page - 1, data.pages))}">${e(t('jobsView.previous'))}</a>` : ''
  }<span>${e(t('jobsView.page', { page: data.page, pages: data.pages }))}</span>${
    data.page < data.pages ? `<a rel="next" href="${viewHref(data.filters, data.page + 1)}">${e(t('jobsView.next'))}</a>` : ''
  }</nav>`;

  const list = `<section class="panel" aria-labelledby="jobs"><h2 id="jobs">${e(t('jobsView.total', { count: data.count }))}</h2>${filters}${table}${paging}</section>`;

  return frame(f, t('jobsView.title'), `<h1>${e(t('jobsView.title'))}</h1>${counts}${detailSection(f, data, { when, status, requester, progress })}${list}`);
}

interface Cells {
  when(date: Date | null): string;
  status(value: string): string;
  requester(job: JobRow): string;
  progress(job: JobRow): string;
}

function detailSection(f: PageFrame, data: JobsPage, cells: Cells): string {
  const { t } = f;
  if (data.detail === undefined) return '';
  const close = `<a href="${viewHref(data.filters, data.page)}">${e(t('jobsView.detail.close'))}</a>`;
  const heading = `<h2 id="job-detail">${e(t('jobsView.detail.title'))}</h2>`;
  if (data.detail === null) return `<section class="panel" aria-labelledby="job-detail">${heading}<p>${e(t('jobsView.detail.not_found'))}</p>${close}</section>`;
  const job: JobDetail = data.detail;
  const item = (label: string, value: string) => `<dt>${e(label)}</dt><dd>${value}</dd>`;
  const none = e(t('jobsView.detail.none'));
  const files = job.files.length ? `<ul>${job.files.map((file) => `<li><code>${e(file.name)}</code>: <code>${e(file.id)}</code></li>`).join('')}</ul>` : none;
  const result = job.result ? resultLines(t, job.result) : [];
  return `<section class="panel" aria-labelledby="job-detail">${heading}<dl>
${item(t('jobsView.columns.type'), e(jobName(t, job.type)))}
${item(t('jobsView.columns.status'), cells.status(job.status))}
${item(t('jobsView.columns.requester'), cells.requester(job))}
${item(t('jobsView.columns.created'), cells.when(job.created_at))}
${item(t('jobsView.columns.started'), cells.when(job.started_at))}
${item(t('jobsView.columns.finished'), cells.when(job.finished_at))}
${item(t('jobsView.columns.progress'), cells.progress(job))}
${item(t('jobsView.detail.files'), files)}
${item(t('jobsView.detail.result'), result.length ? result.map((line) => e(line)).join('<br>') : none)}
${job.error ? item(t('jobsView.columns.error'), `<pre>${e(job.error)}</pre>`) : ''}
</dl>${close}</section>`;
}

function resultLines(t: Translate, result: ResultSummary): string[] {
  const lines: string[] = [];
  if (result.success !== undefined) lines.push(t(result.success ? 'jobsView.detail.outcome_success' : 'jobsView.detail.outcome_failure'));
  if (result.totalElements !== undefined) {
    lines.push(t('jobsView.detail.rows', { importedElements: result.importedElements ?? 0, totalElements: result.totalElements }));
  }
  if (result.errors) lines.push(t('jobsView.detail.rowErrors', { count: result.errors }));
  if (result.warnings) lines.push(t('jobsView.detail.rowWarnings', { count: result.warnings }));
  if (result.fileId) lines.push(t('jobsView.detail.file', { id: result.fileId }));
  return lines;
}
