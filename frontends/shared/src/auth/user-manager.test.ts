import { IndexedDbDPoPStore } from 'oidc-client-ts';
import { describe, expect, it } from 'vitest';
import { createUserManager, redirectUris } from './user-manager';

describe('createUserManager', () => {
  it('places the callback and the post-logout page under the SPA base path', () => {
    expect(redirectUris({ basePath: '/admin', origin: 'https://id.example.com' })).toEqual({
      redirectUri: 'https://id.example.com/admin/auth/callback',
      postLogoutRedirectUri: 'https://id.example.com/admin/',
    });
    expect(redirectUris({ origin: 'https://id.example.com' })).toEqual({
      redirectUri: 'https://id.example.com/auth/callback',
      postLogoutRedirectUri: 'https://id.example.com/',
    });
  });

  it('uses code + PKCE with the given client, no automatic renewal, and the callback page for silent sign-ins', () => {
    const manager = createUserManager(
      { authority: 'https://id.example.com/oidc', clientId: 'admin-console', scopes: 'openid roles' },
      { basePath: '/admin', origin: 'https://id.example.com' },
    );

    expect(manager.settings).toMatchObject({
      client_id: 'admin-console',
      response_type: 'code',
      scope: 'openid roles',
      redirect_uri: 'https://id.example.com/admin/auth/callback',
      silent_redirect_uri: 'https://id.example.com/admin/auth/callback',
      automaticSilentRenew: false,
    });
  });

  it('binds the authorization code and the tokens to a DPoP key pair kept in IndexedDB', () => {
    const manager = createUserManager({ authority: 'https://id.example.com/oidc', clientId: 'portal', scopes: 'openid' }, { origin: 'https://id.example.com' });

    expect(manager.settings.dpop?.bind_authorization_code).toBe(true);
    expect(manager.settings.dpop?.store).toBeInstanceOf(IndexedDbDPoPStore);
  });
});
