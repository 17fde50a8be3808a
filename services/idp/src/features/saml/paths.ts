/** The identity provider's SAML addresses, under the product's public address. */
export function samlUrls(publicUrl: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/saml`;
  return {
    /** The identity provider's entity id (the Issuer of its responses and metadata). */
    entityId: base,
    metadata: `${base}/metadata`,
    sso: `${base}/sso`,
    /** Single logout: service providers' LogoutRequests, and their LogoutResponses while the identity provider tells them. */
    slo: `${base}/slo`,
    /** Where the product's own sign-in comes back to once the user is signed in (the redirect URI of SAML applications' internal clients). */
    continue: `${base}/continue`,
    /** Where the user answers a SAML application's disclaimer before its first assertion. */
    disclaimer: `${base}/disclaimer`,
  };
}
