import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '../domain/constants.js';
import { MAIL_CATALOGUES, type MailParams, type MailTemplate, type Phrases } from './phrases/index.js';

export { MAIL_TEMPLATES, type MailParams, type MailPhrases, type MailTemplate } from './phrases/index.js';

/** A mail ready to send: the same content as plain text and as HTML. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** The language the mail was written in (English when the requested one is not supported). */
  language: Language;
}

/**
 * Writes a mail in the requested language, or in English when that language is not supported.
 * Every parameter is HTML-escaped in the HTML body; a link must be http(s), since it becomes an
 * `href`.
 */
export function renderMail<T extends MailTemplate>(template: T, language: string, params: MailParams[T]): RenderedMail {
  const lang: Language = (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : FALLBACK_LANGUAGE;
  const catalogue = MAIL_CATALOGUES[lang];
  // Indexing by a generic key loses the link between template and parameters; MailParams[T] ties them.
  const phrases = catalogue.templates[template] as unknown as Phrases<Record<string, unknown>> & { action?: string };
  const raw = params as Record<string, unknown>;
  const shown = show(lang, raw);
  const link = typeof raw.link === 'string' ? checkedLink(raw.link) : undefined;
  const code = typeof raw.code === 'string' ? raw.code : undefined;

  const mail: MailParts = {
    subject: phrases.subject(shown),
    greeting: catalogue.common.greeting(shown.name?.trim() ?? ''),
    intro: phrases.intro(shown),
    code,
    link: link && phrases.action ? { href: link, label: phrases.action, fallback: catalogue.common.linkFallback } : undefined,
    outro: phrases.outro(shown),
    automated: catalogue.common.automated,
  };
  return { subject: mail.subject, html: toHtml(lang, mail), text: toText(mail), language: lang };
}

interface MailParts {
  subject: string;
  greeting: string;
  intro: string[];
  code?: string;
  link?: { href: string; label: string; fallback: string };
  outro: string[];
  automated: string;
}

function show(lang: Language, params: Record<string, unknown>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value instanceof Date) shown[key] = formatDate(lang, value);
    else if (key === 'minutes' && typeof value === 'number') shown[key] = formatMinutes(lang, value);
    else shown[key] = String(value ?? '');
  }
  return shown;
}

// Intl spells units and plurals out in every language ("1 minute", "15 Minuten").
function formatMinutes(lang: Language, minutes: number): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
}

// The reader's time zone is unknown here, so the time is given in UTC and says so; a 24-hour clock
// keeps "14:05 UTC" unambiguous in every language.
function formatDate(lang: Language, date: Date): string {
  return new Intl.DateTimeFormat(lang, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(date);
}

// A `javascript:` or `data:` link would run in the reader's mail client.
function checkedLink(link: string): string {
  let protocol: string;
  try {
    protocol = new URL(link).protocol;
  } catch {
    throw new Error('A mail link must be an absolute URL');
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error('A mail link must be an http(s) URL');
  return link;
}

/** Text safe inside HTML content and double- or single-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const P = 'margin:0 0 16px;';
const MUTED = 'color:#57606a;';
const ACCENT = '#0b5cad';

// Mail clients drop <style> blocks and block remote content, so the layout is inline-styled and
// self-contained.
function toHtml(lang: Language, mail: MailParts): string {
  const para = (text: string, style = P) => `<p style="${style}">${escapeHtml(text)}</p>`;
  const parts = [para(mail.greeting), ...mail.intro.map((t) => para(t))];
  if (mail.code !== undefined) {
    parts.push(
      `<p style="margin:24px 0;font-family:'Courier New',Courier,monospace;font-size:28px;font-weight:bold;letter-spacing:6px;">${escapeHtml(mail.code)}</p>`,
    );
  }
  if (mail.link) {
    const href = escapeHtml(mail.link.href);
    parts.push(
      `<p style="margin:24px 0;"><a href="${href}" style="display:inline-block;padding:12px 24px;background:${ACCENT};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">${escapeHtml(mail.link.label)}</a></p>`,
      `<p style="${P}font-size:13px;${MUTED}">${escapeHtml(mail.link.fallback)}<br><a href="${href}" style="color:${ACCENT};word-break:break-all;">${href}</a></p>`,
    );
  }
  parts.push(...mail.outro.map((t) => para(t)), para(mail.automated, `margin:24px 0 0;font-size:12px;${MUTED}`));
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(mail.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2328;">',
    '<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px;font-size:16px;line-height:1.5;">',
    ...parts,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

function toText(mail: MailParts): string {
  const blocks = [mail.greeting, ...mail.intro];
  if (mail.code !== undefined) blocks.push(`    ${mail.code}`);
  if (mail.link) blocks.push(`${mail.link.label}:\n${mail.link.href}`);
  // "-- " marks a signature, which mail clients dim or fold away.
  blocks.push(...mail.outro, `-- \n${mail.automated}`);
  return `${blocks.join('\n\n')}\n`;
}
