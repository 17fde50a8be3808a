import { PAGE_STYLE } from '@gatehouse/core/http';

/**
 * Minimal server-rendered pages of the provider (errors, sign-out), in French and English. They
 * carry no inline code but the page style (allowed by its hash) and, on the sign-out page, one
 * script allowed by the answer's nonce.
 */

const escape = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function page(title: string, body: string, language = 'fr'): string {
  return `<!doctype html>
<html lang="${escape(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${PAGE_STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export function errorPage(options: { title: string; message: string; detail?: string; retryUrl?: string }): string {
  return page(
    options.title,
    `<h1>${escape(options.title)}</h1><p>${escape(options.message)}</p>${
      options.detail ? `<p><small>${escape(options.detail)}</small></p>` : ''
    }<a href="${escape(options.retryUrl ?? '/')}">Retour à l'accueil / Back to home</a>`,
  );
}

/**
 * The sign-out confirmation. Reached from this site (the user chose "Close session"), it submits
 * itself with the script carrying `autoSubmitNonce`; reached from anywhere else, nothing happens
 * until the user presses the button, so no other site can sign the user out.
 */
export function logoutPage(form: string, autoSubmitNonce?: string): string {
  const button = `<button form="op.logoutForm" type="submit" name="logout" value="yes">Se déconnecter / Sign out</button>`;
  if (!autoSubmitNonce) {
    return page('Déconnexion / Sign out', `<h1>Se déconnecter ? / Sign out?</h1>${form}${button}`);
  }
  return page(
    'Déconnexion / Sign out',
    `<h1>Déconnexion… / Signing out…</h1>${form}
<noscript>${button}</noscript>
<script nonce="${escape(autoSubmitNonce)}">(function(){var f=document.getElementById('op.logoutForm');var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();})();</script>`,
  );
}

/** The end of a sign-out no application asked to come back from: the spec's "Login has successfully ended", in the visitor's language. */
export function loggedOutPage(texts: { language: string; title: string; message: string; home: string }): string {
  return page(texts.title, `<h1>${escape(texts.message)}</h1><a href="/">${escape(texts.home)}</a>`, texts.language);
}
