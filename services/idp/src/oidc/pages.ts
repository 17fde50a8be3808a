/** Minimal server-rendered pages of the provider (errors, sign-out), in French and English. */

const escape = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6fa;color:#1f2937;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 10px 30px rgba(15,23,42,.08);padding:40px;max-width:480px;text-align:center}
h1{font-size:1.4rem;margin:0 0 12px}p{color:#4b5563;line-height:1.5}
a,button{display:inline-block;margin-top:16px;padding:10px 22px;border-radius:6px;background:#1d4ed8;color:#fff;text-decoration:none;border:0;font-size:1rem;cursor:pointer}
</style></head><body><main>${body}</main></body></html>`;
}

export function errorPage(options: { title: string; message: string; detail?: string; retryUrl?: string }): string {
  return page(
    options.title,
    `<h1>${escape(options.title)}</h1><p>${escape(options.message)}</p>${
      options.detail ? `<p><small>${escape(options.detail)}</small></p>` : ''
    }<a href="${escape(options.retryUrl ?? '/')}">Retour à l'accueil / Back to home</a>`,
  );
}

/** The sign-out confirmation submits itself: users reach it by choosing "Close session". */
export function logoutPage(form: string): string {
  return page(
    'Déconnexion / Sign out',
    `<h1>Déconnexion… / Signing out…</h1>${form}
<noscript><button form="op.logoutForm" type="submit" name="logout" value="yes">Se déconnecter / Sign out</button></noscript>
<script>(function(){var f=document.getElementById('op.logoutForm');var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();})();</script>`,
  );
}

export function loggedOutPage(): string {
  return page('Session fermée / Signed out', `<h1>Vous êtes déconnecté / You are signed out</h1><a href="/">Accueil / Home</a>`);
}
