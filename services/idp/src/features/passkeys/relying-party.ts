import type { AppContext } from '@gatehouse/core';
import Bowser from 'bowser';

/** The name authenticators show beside the user's passkey. */
const PRODUCT_NAME = 'Gatehouse';

/** Who the passkeys are for: the host users reach the product at, whatever path it is mounted under. */
export interface RelyingParty {
  /** The public URL's host name (`id.example.com`): passkeys are bound to it. */
  id: string;
  /** scheme://host[:port] of the public URL: where the browser's WebAuthn calls must come from. */
  origin: string;
  name: string;
}

/** The relying party of this deployment, from its public URL (`https://example.com/idp` → `example.com`). */
export function relyingPartyOf(context: AppContext): RelyingParty {
  const url = new URL(context.config.server.publicUrl);
  return { id: url.hostname, origin: url.origin, name: PRODUCT_NAME };
}

/**
 * The browser and system a User-Agent names: "Chrome 131 on Linux", or "Chrome on Linux" without
 * `version`; null when it names neither.
 */
export function deviceOf(userAgent: string | null | undefined, { version }: { version: boolean }): string | null {
  if (!userAgent?.trim()) return null;
  const { browser, os } = Bowser.parse(userAgent);
  const major = version ? browser.version?.split('.')[0] : undefined;
  const name = [browser.name, major].filter(Boolean).join(' ');
  const device = [name, os.name].filter(Boolean).join(' on ');
  return device ? device.slice(0, 200) : null;
}
