import { page } from '../../oidc/pages.js';
import type { OutgoingResponse } from './service.js';
import { xmlEscape as escape } from './xml.js';

/**
 * The HTTP-POST binding's page: a form carrying the response to the service provider, submitted
 * by the script the answer's nonce allows (a button without scripts).
 */
export function postFormPage(response: OutgoingResponse, nonce: string): string {
  const relay = response.relayState !== undefined ? `<input type="hidden" name="RelayState" value="${escape(response.relayState)}">` : '';
  return page(
    'Connexion… / Signing in…',
    `<h1>Connexion… / Signing in…</h1>
<form id="saml-post" method="post" action="${escape(response.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${escape(response.samlResponse)}">${relay}<noscript><button type="submit">Continuer / Continue</button></noscript></form>
<script nonce="${escape(nonce)}">document.getElementById('saml-post').submit();</script>`,
  );
}
