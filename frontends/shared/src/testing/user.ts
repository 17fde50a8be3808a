import { User } from 'oidc-client-ts';

export interface TestUserOptions {
  accessToken?: string;
  refreshToken?: string;
  /** Seconds the access token has left. */
  expiresIn?: number;
  /** The state passed to signinRedirect. */
  state?: unknown;
  /** 'DPoP' (the provider bound the tokens, as it does for the SPAs) unless told. */
  tokenType?: string;
}

/** An oidc-client-ts user as the provider would hand it back (tests only). */
export function makeUser(profile: Record<string, unknown> = {}, options: TestUserOptions = {}): User {
  return new User({
    userState: options.state,
    id_token: 'id-token',
    access_token: options.accessToken ?? 'access-1',
    refresh_token: options.refreshToken ?? 'refresh-1',
    token_type: options.tokenType ?? 'DPoP',
    scope: 'openid profile email roles offline_access',
    expires_at: Math.floor(Date.now() / 1000) + (options.expiresIn ?? 3600),
    profile: {
      sub: 'user-1',
      iss: 'http://localhost:3000/oidc',
      aud: 'portal',
      exp: 0,
      iat: 0,
      given_name: 'Jane',
      family_name: 'Doe',
      ...profile,
    } as User['profile'],
  });
}
