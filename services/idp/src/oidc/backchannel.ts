import type Provider from 'oidc-provider';

/** A client as the provider holds it, with the back-channel logout the library implements. */
export type LogoutClient = InstanceType<Provider['Client']> & { backchannelLogout(sub: string, sid?: string): Promise<void> };

/** What an application with a back-channel logout URI was told: nothing went wrong, or `error`. */
export interface BackchannelNotice {
  client: LogoutClient;
  sid?: string;
  error?: Error;
}

/**
 * Tells a session's applications that registered a back-channel logout URI that the session ended
 * (OpenID Connect Back-Channel Logout 1.0: a logout token naming the user and the session's `sid`
 * for that application), all at once. Resolves when every one has answered or failed; a failure
 * is in its notice, never thrown: the session ends whatever the applications say.
 */
export async function tellBackchannelApplications(provider: Provider, accountId: string, authorizations: Record<string, { sid?: string }>): Promise<BackchannelNotice[]> {
  const notices = Object.entries(authorizations).map(async ([clientId, { sid }]): Promise<BackchannelNotice | undefined> => {
    const client = (await provider.Client.find(clientId).catch(() => undefined)) as LogoutClient | undefined;
    if (!client?.backchannelLogoutUri) return undefined;
    return client.backchannelLogout(accountId, sid).then(
      () => ({ client, sid }),
      (error: Error) => ({ client, sid, error }),
    );
  });
  return (await Promise.all(notices)).filter((notice) => notice !== undefined);
}
