import { page } from '../../oidc/pages.js';

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface OutcomePage {
  /** Language of the texts, for the page's `lang`. */
  language: string;
  title: string;
  message: string;
  /** Said under the message (the lock's own words under "User Is Locked Out"). */
  detail?: string;
  /** Back to the sign-in page while its interaction lives: the user chooses to go to Microsoft again. */
  retry?: { url: string; label: string };
  home: { url: string; label: string };
}

/**
 * Where a Microsoft sign-in that cannot finish ends: a page with the reason and links, never a
 * redirect, so no answer of Microsoft's can send the browser round again by itself.
 */
export function outcomePage(options: OutcomePage): string {
  const links = [options.retry, options.home].filter((l): l is { url: string; label: string } => Boolean(l));
  const html = page(
    options.title,
    `<h1>${escape(options.title)}</h1><p role="alert">${escape(options.message)}</p>${options.detail ? `<p>${escape(options.detail)}</p>` : ''}${links
      .map((l) => `<a href="${escape(l.url)}">${escape(l.label)}</a>`)
      .join(' ')}`,
  );
  // The shared frame is written for the provider's bilingual pages; this one is in one language.
  return html.replace('<html lang="fr">', `<html lang="${escape(options.language)}">`);
}
