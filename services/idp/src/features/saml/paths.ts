/** The identity provider's SAML addresses, under the product's public address. */
export function samlUrls(publicUrl: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/saml`;
  return {
    /** The identity provider's entity id (the Issuer of its responses and metadata). */
    entityId: base,
    metadata: `${base}/metadata`,
    sso: `${base}/sso`,
    /** Where the product's own sign-in comes back to once the user is signed in (the redirect URI of SAML applications' internal clients). */
    continue: `${base}/continue`,
  };
}
