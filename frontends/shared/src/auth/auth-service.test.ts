import { User, UserManager } from 'oidc-client-ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubSubtleCrypto } from '../testing/dom';
import { makeUser } from '../testing/user';
import { AuthService, SIGNED_IN_AT_KEY, SIGNED_OUT_AT_KEY, type AuthServiceOptions, type OidcUserManager } from './auth-service';
import { forgetSignedOut, hasSignedOutNotice } from './signed-out-notice';
import { createTokenLock, TOKEN_REFRESH_LOCK } from './token-lock';
import { MemoryDPoPStore } from './testing/memory-dpop-store';
import { PROVIDER_REQUEST_TIMEOUT_S, userManagerSettings } from './user-manager';

/**
 * The provider's refresh endpoint: rotating refresh tokens, each usable once (like oidc-provider);
 * and its prompt=none sign-in, which succeeds only while the browser's provider session is alive.
 */
class FakeProvider {
  private generation = 1;
  refreshes = 0;
  sessionAlive = true;
  silentSignIns = 0;

  signInSilently(): User {
    this.silentSignIns += 1;
    if (!this.sessionAlive) throw Object.assign(new Error('End-User authentication is required'), { error: 'login_required' });
    return makeUser({}, { accessToken: `access-silent-${this.silentSignIns}`, refreshToken: `refresh-silent-${this.silentSignIns}` });
  }

  refresh(user: User): User {
    if (user.refresh_token !== `refresh-${this.generation}`) {
      throw Object.assign(new Error('refresh token already used'), { error: 'invalid_grant' });
    }
    this.refreshes += 1;
    this.generation += 1;
    return makeUser({}, { accessToken: `access-${this.generation}`, refreshToken: `refresh-${this.generation}` });
  }
}

/** The browser's localStorage entry of the user, shared by every tab. */
class SharedUserStore {
  value: string | null = null;
  set(user: User | null) {
    this.value = user ? user.toStorageString() : null;
  }
  get(): User | null {
    return this.value ? User.fromStorageString(this.value) : null;
  }
}

/** A Web Locks stand-in shared by the tabs: exclusive, first come first served. */
class FakeLocks {
  names: string[] = [];
  private tail: Promise<unknown> = Promise.resolve();
  request(name: string, _options: LockOptions, callback: () => Promise<unknown>): Promise<unknown> {
    this.names.push(name);
    const result = this.tail.then(() => callback());
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** One tab's UserManager: reads and writes the shared store; renewals go to the provider. */
function fakeUserManager(store: SharedUserStore, provider: FakeProvider) {
  const manager = {
    getUser: vi.fn(async () => store.get()),
    removeUser: vi.fn(async () => store.set(null)),
    signinRedirect: vi.fn(async (_args?: { state?: unknown }) => undefined),
    signinCallback: vi.fn(async (_url?: string): Promise<User | undefined> => makeUser()),
    signinSilent: vi.fn(async () => {
      const current = store.get();
      // A network round trip: the other tab gets its turn meanwhile, unless a lock stops it.
      await new Promise((resolve) => setTimeout(resolve, 10));
      // With a refresh token a refresh; without one, the hidden frame's prompt=none sign-in.
      const renewed = current?.refresh_token ? provider.refresh(current) : provider.signInSilently();
      store.set(renewed);
      return renewed;
    }),
    signoutRedirect: vi.fn(async () => undefined),
    dpopProof: vi.fn(async (url: string, _user: User, method?: string, nonce?: string): Promise<string | undefined> => `proof ${method} ${url} ${nonce ?? '-'}`),
    events: {
      addAccessTokenExpiring: vi.fn(() => () => undefined),
      addAccessTokenExpired: vi.fn(() => () => undefined),
      addUserLoaded: vi.fn(() => () => undefined),
      addUserUnloaded: vi.fn(() => () => undefined),
    },
  } satisfies OidcUserManager;
  return manager;
}

/** A call of the SPA to its API. */
const API_CALL = { url: 'https://id.example.com/api/v1/profile', method: 'GET' };

function staleUser(): User {
  return makeUser({}, { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: 30 });
}

describe('AuthService renewal', () => {
  let store: SharedUserStore;
  let provider: FakeProvider;

  beforeEach(() => {
    store = new SharedUserStore();
    provider = new FakeProvider();
  });

  it('lets two tabs share one refresh: the second takes the tokens the first stored', async () => {
    store.set(staleUser());
    const locks = new FakeLocks();
    const tabA = fakeUserManager(store, provider);
    const tabB = fakeUserManager(store, provider);
    const authA = new AuthService({ userManager: tabA, lock: createTokenLock(locks) });
    const authB = new AuthService({ userManager: tabB, lock: createTokenLock(locks) });

    const [userA, userB] = await Promise.all([authA.renew(), authB.renew()]);

    expect(provider.refreshes).toBe(1);
    expect(tabA.signinSilent).toHaveBeenCalledTimes(1);
    expect(tabB.signinSilent).not.toHaveBeenCalled();
    expect(userA?.access_token).toBe('access-2');
    expect(userB?.access_token).toBe('access-2');
    expect(authB.getUser()?.access_token).toBe('access-2');
    expect(locks.names).toEqual([TOKEN_REFRESH_LOCK, TOKEN_REFRESH_LOCK]);
  });

  it('would lose the session without the lock, which is why it is there', async () => {
    store.set(staleUser());
    const unlocked = { run: <T,>(task: () => Promise<T>) => task() };
    const authA = new AuthService({ userManager: fakeUserManager(store, provider), lock: unlocked });
    const authB = new AuthService({ userManager: fakeUserManager(store, provider), lock: unlocked });

    const [userA, userB] = await Promise.all([authA.renew(), authB.renew()]);

    // The second tab presented the refresh token the first had just rotated: refused, signed out.
    expect(provider.refreshes).toBe(1);
    expect([userA, userB].filter((user) => user === null)).toHaveLength(1);
  });

  it('queues renewals of one tab and refreshes once', async () => {
    store.set(staleUser());
    const manager = fakeUserManager(store, provider);
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });

    const users = await Promise.all([auth.renew(), auth.renew(), auth.renew()]);

    expect(manager.signinSilent).toHaveBeenCalledTimes(1);
    expect(users.map((user) => user?.access_token)).toEqual(['access-2', 'access-2', 'access-2']);
  });

  it('skips the refresh when the stored token is still fresh', async () => {
    store.set(makeUser({}, { accessToken: 'access-1', expiresIn: 3600 }));
    const manager = fakeUserManager(store, provider);
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });

    expect((await auth.renew())?.access_token).toBe('access-1');
    expect(manager.signinSilent).not.toHaveBeenCalled();
  });

  it('refreshes a fresh-looking token the API refused', async () => {
    store.set(makeUser({}, { accessToken: 'access-1', expiresIn: 3600 }));
    const manager = fakeUserManager(store, provider);
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });

    expect((await auth.renew({ rejectedToken: 'access-1' }))?.access_token).toBe('access-2');
    expect(manager.signinSilent).toHaveBeenCalledTimes(1);
  });

  it('ends the local session when the provider refuses the refresh token', async () => {
    store.set(makeUser({}, { refreshToken: 'revoked', expiresIn: 10 }));
    const manager = fakeUserManager(store, provider);
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });
    const listener = vi.fn();
    await auth.initialize();
    auth.subscribe(listener);

    expect(await auth.renew()).toBeNull();
    expect(manager.removeUser).toHaveBeenCalled();
    expect(auth.getUser()).toBeNull();
    expect(listener).toHaveBeenCalled();
  });

  it('keeps the session when the refresh fails for want of network', async () => {
    store.set(staleUser());
    const manager = fakeUserManager(store, provider);
    manager.signinSilent.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });

    await expect(auth.renew()).rejects.toThrow('Failed to fetch');
    expect(manager.removeUser).not.toHaveBeenCalled();
    expect(store.get()?.refresh_token).toBe('refresh-1');
  });

  it('renews an expired stored user at start', async () => {
    store.set(makeUser({}, { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: -5 }));
    const auth = new AuthService({ userManager: fakeUserManager(store, provider), lock: createTokenLock(undefined) });

    expect((await auth.initialize())?.access_token).toBe('access-2');
  });

  it('renews before handing out an expired access token', async () => {
    store.set(makeUser({}, { accessToken: 'access-1', expiresIn: 120 }));
    const auth = new AuthService({ userManager: fakeUserManager(store, provider), lock: createTokenLock(undefined) });
    await auth.initialize();
    expect((await auth.authorize(API_CALL))?.token).toBe('access-1');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 200_000);
    try {
      expect((await auth.authorize(API_CALL))?.token).toBe('access-2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up a refresh the provider never answers after the request timeout, and lets the next renewal through the lock', async () => {
    // The real oidc-client-ts manager: the timeout must reach its refresh request, not a fake's.
    // Its refresh carries a DPoP proof: WebCrypto signs it, with the key in a memory store.
    stubSubtleCrypto();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const authority = 'https://id.example.com/oidc';
    const tokenCalls: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.endsWith('/.well-known/openid-configuration')) {
        const metadata = { issuer: authority, authorization_endpoint: `${authority}/auth`, token_endpoint: `${authority}/token`, jwks_uri: `${authority}/jwks` };
        return Promise.resolve(new Response(JSON.stringify(metadata), { headers: { 'content-type': 'application/json' } }));
      }
      tokenCalls.push(url);
      // The token endpoint never answers: only the caller's abort ends the wait.
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    });
    try {
      const client = { authority, clientId: 'portal', scopes: 'openid offline_access' };
      const manager = new UserManager(userManagerSettings(client, { origin: 'https://id.example.com' }, new MemoryDPoPStore()));
      await manager.storeUser(makeUser({}, { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: -60 }));
      const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });

      let outcome = 'pending';
      const first = auth.renew().then(
        () => (outcome = 'resolved'),
        () => (outcome = 'rejected'),
      );
      const second = auth.renew().catch(() => null);
      // Signing the proof is real work outside the faked timers: the request is awaited first.
      await vi.waitFor(() => expect(tokenCalls).toHaveLength(1));
      await vi.advanceTimersByTimeAsync((PROVIDER_REQUEST_TIMEOUT_S - 1) * 1000);
      expect(tokenCalls).toHaveLength(1);
      expect(outcome).toBe('pending');
      await vi.advanceTimersByTimeAsync(2000);
      await first;
      expect(outcome).toBe('rejected');
      // The lock is free again: the renewal that waited behind it asks the provider in its turn.
      await vi.waitFor(() => expect(tokenCalls).toHaveLength(2));
      await vi.advanceTimersByTimeAsync(PROVIDER_REQUEST_TIMEOUT_S * 1000 + 1000);
      await second;
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
      localStorage.clear();
    }
  });
});

describe('AuthService authorization of API calls', () => {
  let store: SharedUserStore;
  let provider: FakeProvider;

  beforeEach(() => {
    store = new SharedUserStore();
    provider = new FakeProvider();
  });

  async function signedIn(user: User) {
    store.set(user);
    const manager = fakeUserManager(store, provider);
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });
    await auth.initialize();
    return { auth, manager };
  }

  it('sends a bound token under the DPoP scheme with a proof of the method and the URL without its query', async () => {
    const { auth, manager } = await signedIn(makeUser({}, { accessToken: 'access-1' }));

    const authorization = await auth.authorize({ url: 'https://id.example.com/api/v1/admin/users?search=a#b', method: 'delete', nonce: 'n-1' });

    expect(authorization).toEqual({
      token: 'access-1',
      headers: { Authorization: 'DPoP access-1', DPoP: 'proof DELETE https://id.example.com/api/v1/admin/users n-1' },
    });
    // The proof is made for the token sent: its hash goes in the proof (ath).
    expect(manager.dpopProof.mock.calls[0]![1].access_token).toBe('access-1');
  });

  it('renews an expired token before making its proof', async () => {
    const { auth, manager } = await signedIn(makeUser({}, { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: 120 }));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 200_000);
    try {
      const authorization = await auth.authorize(API_CALL);

      expect(authorization?.headers.Authorization).toBe('DPoP access-2');
      expect(manager.dpopProof.mock.calls.map(([, user]) => user.access_token)).toEqual(['access-2']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends a token the provider did not bind as a bearer token, with no proof', async () => {
    const { auth, manager } = await signedIn(makeUser({}, { accessToken: 'access-1', tokenType: 'Bearer' }));

    expect(await auth.authorize(API_CALL)).toEqual({
      token: 'access-1',
      headers: { Authorization: 'Bearer access-1' },
    });
    expect(manager.dpopProof).not.toHaveBeenCalled();
  });

  it('sends the bound token without a proof when none can be made, and nothing when signed out', async () => {
    const { auth, manager } = await signedIn(makeUser({}, { accessToken: 'access-1' }));
    manager.dpopProof.mockRejectedValueOnce(new Error('IndexedDB is not available'));

    expect(await auth.authorize(API_CALL)).toEqual({
      token: 'access-1',
      headers: { Authorization: 'DPoP access-1' },
    });

    store.set(null);
    const signedOut = new AuthService({ userManager: fakeUserManager(store, provider), lock: createTokenLock(undefined) });
    await signedOut.initialize();
    expect(await signedOut.authorize(API_CALL)).toBeUndefined();
  });
});

describe('AuthService sign-in and sign-out', () => {
  let store: SharedUserStore;

  beforeEach(() => {
    store = new SharedUserStore();
  });

  afterEach(() => {
    localStorage.clear();
  });

  it('sends the user to the provider with the page to come back to', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined) });

    await auth.signIn('/profile?tab=1');

    expect(manager.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/profile?tab=1' } });
  });

  it('returns to the page the user was on after the callback, never to another site', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage });
    const user = makeUser({}, { state: { returnTo: '/profile' } });
    manager.signinCallback.mockResolvedValueOnce(user);

    expect(await auth.completeSignIn('http://localhost:3000/auth/callback?code=c&state=s')).toBe('/profile');
    expect(auth.getUser()).toBe(user);
    expect(JSON.parse(localStorage.getItem(SIGNED_IN_AT_KEY)!)).toMatchObject({ sub: 'user-1' });

    const tampered = makeUser({}, { state: { returnTo: '//evil.example.com/' } });
    manager.signinCallback.mockResolvedValueOnce(tampered);
    expect(await auth.completeSignIn()).toBe('/');
  });

  it('hands the signed-in user to onSignedIn before returning, and a failure there does not undo the sign-in', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const seen: string[] = [];
    const onSignedIn = vi.fn(async (signedIn: User) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(signedIn.profile.sub);
    });
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage, onSignedIn });
    manager.signinCallback.mockResolvedValueOnce(makeUser({}, { state: { returnTo: '/profile' } }));

    expect(await auth.completeSignIn()).toBe('/profile');
    // Awaited: the page it returns to already has what onSignedIn did.
    expect(seen).toEqual(['user-1']);

    onSignedIn.mockRejectedValueOnce(new Error('phrases unreachable'));
    manager.signinCallback.mockResolvedValueOnce(makeUser({ sub: 'user-2' }, { state: { returnTo: '/apps' } }));
    // The sign-in still completes, to the page it came from.
    expect(await auth.completeSignIn()).toBe('/apps');
    expect(onSignedIn).toHaveBeenCalledTimes(2);
  });

  it('leaves the answer of a silent sign-in, in its hidden frame, to the window that opened the frame', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage });
    manager.signinCallback.mockResolvedValueOnce(undefined);
    const settled = vi.fn();

    void auth.completeSignIn('http://localhost:3000/auth/callback?code=c&state=silent').then(settled, settled);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(manager.signinCallback).toHaveBeenCalledWith('http://localhost:3000/auth/callback?code=c&state=silent');
    // No page to go to: the frame stays where it is until the opener removes it.
    expect(settled).not.toHaveBeenCalled();
    expect(auth.getUser()).toBeNull();
    expect(localStorage.getItem(SIGNED_IN_AT_KEY)).toBeNull();
  });

  it('keeps its own callback route and storage keys when given them (an SPA under a base path)', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({
      userManager: manager,
      lock: createTokenLock(undefined),
      storage: localStorage,
      callbackPath: '/signin/done',
      storageKeyPrefix: 'gatehouse.admin',
    });
    manager.signinCallback.mockResolvedValueOnce(makeUser({}, { state: { returnTo: '/signin/done?code=x' } }));

    expect(await auth.completeSignIn()).toBe('/');
    expect(localStorage.getItem('gatehouse.admin.signedInAt')).toContain('user-1');
    expect(localStorage.getItem(SIGNED_IN_AT_KEY)).toBeNull();

    await auth.signOut();
    expect(localStorage.getItem('gatehouse.admin.signedOutAt')).not.toBeNull();
    expect(localStorage.getItem('gatehouse.admin.signedInAt')).toBeNull();
  });

  it('keeps its default storage keys when the SPA hands in no prefix or callback route (undefined)', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage, storageKeyPrefix: undefined, callbackPath: undefined });
    manager.signinCallback.mockResolvedValueOnce(makeUser({}, { state: { returnTo: '/auth/callback?code=x' } }));

    expect(await auth.completeSignIn()).toBe('/');
    expect(localStorage.getItem(SIGNED_IN_AT_KEY)).toContain('user-1');
    await auth.signOut();
    expect(localStorage.getItem(SIGNED_OUT_AT_KEY)).not.toBeNull();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('undefined'))).toEqual([]);
  });

  it('signs out through the provider, saying so before the user is removed', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage });
    localStorage.setItem(SIGNED_IN_AT_KEY, '{}');
    manager.signoutRedirect.mockImplementation(async () => {
      expect(auth.sessionEnd()).toBe('signing-out');
    });

    await auth.signOut();

    expect(manager.signoutRedirect).toHaveBeenCalled();
    expect(localStorage.getItem(SIGNED_IN_AT_KEY)).toBeNull();
    // The sign-in page the tab ends on says "Login has successfully ended".
    expect(hasSignedOutNotice()).toBe(true);
    forgetSignedOut();
  });

  it('leaves no sign-out notice when the provider could not be reached', async () => {
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage });
    manager.signoutRedirect.mockRejectedValueOnce(new Error('offline'));

    await expect(auth.signOut()).rejects.toThrow('offline');
    expect(hasSignedOutNotice()).toBe(false);
  });

  it("follows another tab's sign-out through the storage event", async () => {
    store.set(makeUser());
    const manager = fakeUserManager(store, new FakeProvider());
    const auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), window });
    await auth.initialize();
    expect(auth.getUser()).not.toBeNull();

    store.set(null);
    window.dispatchEvent(new StorageEvent('storage', { key: 'oidc.user:http://localhost:3000/oidc:portal' }));

    await vi.waitFor(() => expect(auth.getUser()).toBeNull());
    auth.dispose();
  });

  it('counts the session from auth_time, or from the sign-in when the token lacks it', async () => {
    const now = Date.UTC(2026, 0, 1, 12);
    store.set(makeUser({ auth_time: now / 1000 - 3600 }));
    const withAuthTime = new AuthService({ userManager: fakeUserManager(store, new FakeProvider()), lock: createTokenLock(undefined), now: () => now });
    await withAuthTime.initialize();
    expect(withAuthTime.sessionExpiresAt()).toBe(now - 3600_000 + 24 * 3600_000);

    store.set(makeUser());
    const without = new AuthService({ userManager: fakeUserManager(store, new FakeProvider()), lock: createTokenLock(undefined), storage: localStorage, now: () => now });
    await without.initialize();
    expect(without.sessionExpiresAt()).toBe(now + 24 * 3600_000);
  });
});

describe('AuthService across tabs', () => {
  afterEach(() => {
    localStorage.clear();
  });

  type Tab = { store: SharedUserStore; manager: ReturnType<typeof fakeUserManager> };

  /**
   * Two tabs on one store; the first closes the session, as the user's "Close session" does, and
   * the second hears of it through the storage event (`prepare` runs just before). The second tab
   * signs in again at once, unless `settle` says otherwise (`{}`: the default wait).
   */
  async function closeSessionInOtherTab(
    provider: FakeProvider,
    prepare: (tab: Tab) => void = () => undefined,
    settle: Pick<AuthServiceOptions, 'signOutSettleMs'> = { signOutSettleMs: 0 },
  ) {
    const store = new SharedUserStore();
    store.set(makeUser());
    const closing = new AuthService({ userManager: fakeUserManager(store, provider), lock: createTokenLock(undefined), storage: localStorage });
    const manager = fakeUserManager(store, provider);
    const other = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage, window, ...settle });
    await other.initialize();
    const listener = vi.fn();
    other.subscribe(listener);

    await closing.signOut();
    store.set(null);
    prepare({ store, manager });
    window.dispatchEvent(new StorageEvent('storage', { key: 'oidc.user:http://localhost:3000/oidc:portal' }));
    return { store, other, manager, listener };
  }

  it('tells the other tabs that the user closed the session once their silent sign-in fails, so they do not sign in again', async () => {
    const provider = new FakeProvider();
    provider.sessionAlive = false;
    const { other, manager } = await closeSessionInOtherTab(provider);

    await vi.waitFor(() => expect(other.getUser()).toBeNull());
    expect(manager.signinSilent).toHaveBeenCalledTimes(1);
    expect(other.sessionEnd()).toBe('closed-elsewhere');
    expect(manager.signinRedirect).not.toHaveBeenCalled();
    other.dispose();
  });

  it('signs the other tabs in again silently while the provider session is alive', async () => {
    const { other, manager, store, listener } = await closeSessionInOtherTab(new FakeProvider());

    await vi.waitFor(() => expect(other.getUser()?.access_token).toBe('access-silent-1'));
    expect(manager.signinSilent).toHaveBeenCalledTimes(1);
    expect(other.sessionEnd()).toBeUndefined();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get()?.access_token).toBe('access-silent-1');
    expect((await other.authorize(API_CALL))?.token).toBe('access-silent-1');
    other.dispose();
  });

  it('gives the other tab’s sign-out two seconds to reach the provider before signing in again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const provider = new FakeProvider();
      const { other, manager } = await closeSessionInOtherTab(provider, undefined, {});
      await vi.advanceTimersByTimeAsync(1_900);
      expect(manager.signinSilent).not.toHaveBeenCalled();
      expect(other.getUser()?.access_token).toBe('access-1');

      // Meanwhile the sign-out ended the provider session.
      provider.sessionAlive = false;
      await vi.advanceTimersByTimeAsync(200);
      expect(manager.signinSilent).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(20);
      expect(other.getUser()).toBeNull();
      expect(other.sessionEnd()).toBe('closed-elsewhere');
      other.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the user while the silent sign-in runs, and a renewal meanwhile waits for it', async () => {
    let answer: (user: User) => void = () => undefined;
    const { other, manager } = await closeSessionInOtherTab(new FakeProvider(), (tab) => {
      tab.manager.signinSilent.mockImplementationOnce(() => new Promise<User>((resolve) => (answer = resolve)));
    });
    await vi.waitFor(() => expect(manager.signinSilent).toHaveBeenCalled());

    expect(other.getUser()?.access_token).toBe('access-1');
    const renewal = other.renew({ rejectedToken: 'access-1' });
    answer(makeUser({}, { accessToken: 'access-silent' }));

    expect((await renewal)?.access_token).toBe('access-silent');
    expect(other.getUser()?.access_token).toBe('access-silent');
    expect(manager.removeUser).not.toHaveBeenCalled();
    expect(manager.signinSilent).toHaveBeenCalledTimes(1);
    other.dispose();
  });

  it('takes the tokens of a tab that signed in again first instead of signing in once more', async () => {
    const provider = new FakeProvider();
    const { other, manager } = await closeSessionInOtherTab(provider, (tab) => {
      // The storage event finds no user; by the time the lock is held, another tab has one.
      tab.store.set(makeUser({}, { accessToken: 'access-from-the-other-tab' }));
      tab.manager.getUser.mockImplementationOnce(async () => null);
    });

    await vi.waitFor(() => expect(other.getUser()?.access_token).toBe('access-from-the-other-tab'));
    expect(manager.signinSilent).not.toHaveBeenCalled();
    expect(provider.silentSignIns).toBe(0);
    other.dispose();
  });

  it('does not take a user removed for another reason for a sign-out', async () => {
    const store = new SharedUserStore();
    store.set(makeUser());
    const tab = new AuthService({ userManager: fakeUserManager(store, new FakeProvider()), lock: createTokenLock(undefined), storage: localStorage, window });
    await tab.initialize();

    store.set(null);
    window.dispatchEvent(new StorageEvent('storage', { key: 'oidc.user:http://localhost:3000/oidc:portal' }));

    await vi.waitFor(() => expect(tab.getUser()).toBeNull());
    expect(tab.sessionEnd()).toBeUndefined();
    tab.dispose();
  });
});
