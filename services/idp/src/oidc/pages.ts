import { PAGE_STYLE } from '@gatehouse/core/http';

/**
 * Minimal server-rendered pages of the provider: errors and sign-out (in French and English), and a
 * device's sign-in (in the user's language). They carry no inline code but the page style (allowed
 * by its hash) and, on the sign-out page, one script allowed by the answer's nonce.
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

/** What every page of a device's sign-in says, in one language. */
interface DevicePage {
  language: string;
  title: string;
}

/**
 * The page where the user types the code their device shows (RFC 8628's verification URI):
 * `message` says what went wrong with the last one, `form` is absent when no code may be tried now.
 */
export function deviceCodePage(texts: DevicePage & { heading: string; message?: string; form?: { action: string; xsrf: string; label: string; submit: string } }): string {
  const { form } = texts;
  const alert = texts.message ? `<p role="alert">${escape(texts.message)}</p>` : '';
  const fields = form
    ? `<form method="post" action="${escape(form.action)}"><input type="hidden" name="xsrf" value="${escape(form.xsrf)}">
<p><label for="user_code">${escape(form.label)}</label><br><input id="user_code" name="user_code" placeholder="XXXX-XXXX" maxlength="20" autocomplete="off" autocapitalize="characters" spellcheck="false" required autofocus></p>
<button type="submit">${escape(form.submit)}</button></form>`
    : '';
  return page(texts.title, `<h1>${escape(texts.heading)}</h1>${alert}${fields}`, texts.language);
}

/**
 * The signed-in user's confirmation: which application, as whom, the code to compare with the
 * device's, and what the application will get. Without `form` (nothing may be confirmed from this
 * session) it only says why.
 */
export function deviceConfirmPage(
  texts: DevicePage & {
    intro: string;
    codeCheck: string;
    userCode: string;
    accessHeading: string;
    access: string[];
    warning: string;
    form?: { action: string; xsrf: string; confirm: string; cancel: string };
  },
): string {
  const { form } = texts;
  const buttons = form
    ? `<form method="post" action="${escape(form.action)}"><input type="hidden" name="xsrf" value="${escape(form.xsrf)}"><input type="hidden" name="user_code" value="${escape(texts.userCode)}">
<button type="submit" name="confirm" value="yes" autofocus>${escape(form.confirm)}</button> <button type="submit" name="abort" value="yes">${escape(form.cancel)}</button></form>`
    : '';
  return page(
    texts.title,
    `<h1>${escape(texts.title)}</h1><p>${escape(texts.intro)}</p><p>${escape(texts.codeCheck)}<br><strong>${escape(texts.userCode)}</strong></p>
<p>${escape(texts.accessHeading)}</p><ul>${texts.access.map((item) => `<li>${escape(item)}</li>`).join('')}</ul><p role="note"><small>${escape(texts.warning)}</small></p>${buttons}`,
    texts.language,
  );
}

/** The end of a device's sign-in: the device has its tokens (or will at its next poll). */
export function deviceDonePage(texts: DevicePage & { message: string }): string {
  return page(texts.title, `<h1>${escape(texts.title)}</h1><p>${escape(texts.message)}</p>`, texts.language);
}
