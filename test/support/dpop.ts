// Calls from the test process with a token an SPA holds: its tokens are DPoP-bound to a key the
// page keeps in IndexedDB and cannot export, so the page signs each call's proof (RFC 9449) and
// the test sends it.
import type { Page } from 'playwright-core';

// A page script (a string: the pages' policy refuses what a function's serialisation may need).
const PROOF = `(async ([client, htm, htu, token]) => {
  const b64u = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
  const text = (value) => new TextEncoder().encode(value);
  const opened = indexedDB.open('oidc');
  const db = await new Promise((resolve, reject) => { opened.onsuccess = () => resolve(opened.result); opened.onerror = () => reject(opened.error); });
  try {
    const read = db.transaction('dpop').objectStore('dpop').get(client);
    const entry = await new Promise((resolve, reject) => { read.onsuccess = () => resolve(read.result); read.onerror = () => reject(read.error); });
    if (!entry) throw new Error('no DPoP key for ' + client);
    const { privateKey, publicKey } = entry.keys;
    const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', publicKey);
    const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } };
    const payload = { htm, htu, iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID() };
    if (token) payload.ath = b64u(await crypto.subtle.digest('SHA-256', text(token)));
    const input = b64u(text(JSON.stringify(header))) + '.' + b64u(text(JSON.stringify(payload)));
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, text(input));
    return input + '.' + b64u(signature);
  } finally {
    db.close();
  }
})`;

/** The access token the page's SPA (`client`) holds, from oidc-client-ts's stored user. */
export async function storedAccessToken(page: Page, client: string): Promise<string> {
  const entries = (await page.evaluate(
    `Object.keys(localStorage).filter((key) => key.startsWith('oidc.user:') && key.endsWith(${JSON.stringify(`:${client}`)})).map((key) => localStorage.getItem(key))`,
  )) as string[];
  if (entries.length !== 1) throw new Error(`${client} holds ${entries.length} signed-in users`);
  return (JSON.parse(entries[0]!) as { access_token: string }).access_token;
}

/**
 * A proof for one call, signed in the page with the key of the SPA `client`: `token` is the access
 * token the call carries (none for a call to the token endpoint).
 */
export async function proofFromPage(page: Page, client: string, method: string, url: string, token?: string): Promise<string> {
  const target = new URL(url);
  return (await page.evaluate(`${PROOF}(${JSON.stringify([client, method.toUpperCase(), `${target.origin}${target.pathname}`, token ?? null])})`)) as string;
}

/**
 * A `fetch` from the test process in the name of the SPA `client` signed in on `page`: its token,
 * with a proof the page signs for each call. The page must stay open while it is used.
 */
export function callsAs(page: Page, client: string): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const token = await storedAccessToken(page, client);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    headers.set('authorization', `DPoP ${token}`);
    headers.set('dpop', await proofFromPage(page, client, method, url, token));
    return fetch(url, { ...init, method, headers });
  };
}
