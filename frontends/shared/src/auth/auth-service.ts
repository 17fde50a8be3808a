import type { User } from 'oidc-client-ts';
import { dpopTarget, isSenderConstrained, requestAuthorization, type ProofTarget, type RequestAuthorization } from './dpop';
import { DEFAULT_CALLBACK_PATH, safeReturnTo } from './return-to';
import { sessionExpiresAt, type SessionClaims } from './session-expiry';
import { forgetSignedOut, noteSignedOut } from './signed-out-notice';
import type { TokenLock } from './token-lock';
import { PROVIDER_REQUEST_TIMEOUT_S } from './user-manager';

/** The part of oidc-client-ts's UserManager the SPAs use (tests hand in a fake). */
export interface OidcUserManager {
  getUser(): Promise<User | null>;
  removeUser(): Promise<void>;
  signinRedirect(args?: { state?: unknown }): Promise<void>;
  /**
   * Finishes a sign-in on the callback page: the user of a redirect sign-in; undefined in the
   * hidden frame of a silent one, whose answer goes to the window that opened the frame.
   */
  signinCallback(url?: string): Promise<User | undefined>;
  /**
   * With a refresh token, a refresh; without one, a prompt=none sign-in in a hidden frame. The
   * timeout bounds either (oidc-client-ts waits for a refresh without end unless it is given).
   */
  signinSilent(args?: { silentRequestTimeoutInSeconds?: number }): Promise<User | null>;
  signoutRedirect(): Promise<void>;
  /** A DPoP proof for a call to `url` with `user`'s access token (`ath`); undefined without a key pair. */
  dpopProof(url: string, user: User, httpMethod?: string, nonce?: string): Promise<string | undefined>;
  events: {
    addAccessTokenExpiring(callback: () => void): () => void;
    addAccessTokenExpired(callback: () => void): () => void;
    addUserLoaded(callback: (user: User) => void): () => void;
    addUserUnloaded(callback: () => void): () => void;
  };
}

export type SessionEnd = 'signing-out' | 'closed-elsewhere';

/** What the signed-in part of an SPA needs from the sign-in machinery. */
export interface OidcAuth {
  /** The signed-in user, or null; stable between changes (a `useSyncExternalStore` snapshot). */
  getUser(): User | null;
  subscribe(listener: () => void): () => void;
  /**
   * The headers that authorize a call to `target`: a usable access token (renewed first when it
   * has expired) and, for a sender-constrained one, a fresh DPoP proof for that URL and method;
   * undefined when nobody is signed in.
   */
  authorize(target: ProofTarget): Promise<RequestAuthorization | undefined>;
  /** Renews the tokens, once for all tabs; see {@link AuthService.renew}. */
  renew(options?: { rejectedToken?: string }): Promise<User | null>;
  /** Sends the browser to the provider's sign-in, to come back to `returnTo`. */
  signIn(returnTo: string): Promise<void>;
  signOut(): Promise<void>;
  /**
   * Why there is no user although one was signed in: this tab is signing out, or the user closed
   * the session in another tab and the silent sign-in that followed failed (the provider session
   * is over). Either way the tab must not send the user to the sign-in page by itself.
   */
  sessionEnd(): SessionEnd | undefined;
  /** End of the session in epoch ms (the idle warning and the expiry modal count to it). */
  sessionExpiresAt(): number | undefined;
}

export interface AuthServiceOptions {
  userManager: OidcUserManager;
  lock: TokenLock;
  /** The SPA's callback route, never a page to return to (default '/auth/callback'). */
  callbackPath?: string;
  /**
   * Prefix of the storage keys of the sign-in and sign-out times, so two SPAs of one origin keep
   * their own (default 'gatehouse').
   */
  storageKeyPrefix?: string;
  /** Where the sign-in time is kept when the ID token has no auth_time. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Listens to other tabs' changes of the stored user; none in tests. */
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  now?: () => number;
  /**
   * How long a tab waits, once another tab closed the session, before it tries to sign in again
   * silently (default 2 s): the other tab's sign-out reaches the provider meanwhile, so the silent
   * sign-in finds the provider session over rather than racing the sign-out.
   */
  signOutSettleMs?: number;
  /** Runs after a redirect sign-in completes, before the page returns (e.g. the chosen language). */
  onSignedIn?: (user: User) => Promise<void> | void;
}

/** A token this close to its end is renewed rather than used (oidc-client-ts warns 60 s ahead). */
const FRESHNESS_MARGIN_SECONDS = 60;

const DEFAULT_KEY_PREFIX = 'gatehouse';

export const SIGNED_IN_AT_KEY = `${DEFAULT_KEY_PREFIX}.signedInAt`;

/** Set by the tab that closes the session, so the others know the user left on purpose. */
export const SIGNED_OUT_AT_KEY = `${DEFAULT_KEY_PREFIX}.signedOutAt`;

/** How recent a sign-out must be for another tab to take a vanished user for it. */
const SIGN_OUT_NOTICE_MS = 60_000;

const SIGN_OUT_SETTLE_MS = 2_000;

function isFresh(user: User): boolean {
  return user.expires_in === undefined || user.expires_in > FRESHNESS_MARGIN_SECONDS;
}

// The provider answers invalid_grant to a refresh token that was revoked, rotated already or
// expired: the session is over and only a new sign-in helps.
function sessionIsOver(error: unknown): boolean {
  const code = (error as { error?: unknown } | null)?.error;
  return code === 'invalid_grant' || code === 'login_required';
}

/**
 * An SPA's OIDC session on top of oidc-client-ts: code + PKCE sign-in, refresh-token renewal
 * shared by every open tab, and the state the React tree subscribes to.
 */
export class AuthService implements OidcAuth {
  private user: User | null = null;
  private ended: SessionEnd | undefined;
  /** The silent sign-in after another tab's sign-out, while it runs. */
  private signingInAgain: Promise<User | null> | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly cleanups: Array<() => void> = [];
  private readonly options: Required<Omit<AuthServiceOptions, 'storage' | 'window' | 'onSignedIn'>> &
    Pick<AuthServiceOptions, 'storage' | 'window' | 'onSignedIn'>;
  private readonly signedInAtKey: string;
  private readonly signedOutAtKey: string;

  constructor(options: AuthServiceOptions) {
    // `??`, not defaults spread first: callers hand in options that may be undefined (the portal's
    // session loader passes no storage key prefix), and those must get the default too.
    this.options = {
      ...options,
      now: options.now ?? (() => Date.now()),
      callbackPath: options.callbackPath ?? DEFAULT_CALLBACK_PATH,
      storageKeyPrefix: options.storageKeyPrefix ?? DEFAULT_KEY_PREFIX,
      signOutSettleMs: options.signOutSettleMs ?? SIGN_OUT_SETTLE_MS,
    };
    this.signedInAtKey = `${this.options.storageKeyPrefix}.signedInAt`;
    this.signedOutAtKey = `${this.options.storageKeyPrefix}.signedOutAt`;
  }

  /** Loads the stored user (renewing an expired one) and starts following token events. */
  async initialize(): Promise<User | null> {
    const { userManager: manager, window: win } = this.options;
    const renewQuietly = () => {
      this.renew().catch(() => undefined);
    };
    this.cleanups.push(
      manager.events.addAccessTokenExpiring(renewQuietly),
      manager.events.addAccessTokenExpired(renewQuietly),
      manager.events.addUserLoaded((user) => this.setUser(user)),
      manager.events.addUserUnloaded(() => this.setUser(null)),
    );
    if (win) {
      // Another tab refreshed or signed out: storage events only reach the other tabs.
      const onStorage = (event: StorageEvent) => {
        if (event.key === null || event.key.startsWith('oidc.user:')) void this.reload();
      };
      win.addEventListener('storage', onStorage);
      this.cleanups.push(() => win.removeEventListener('storage', onStorage));
    }
    const stored = await manager.getUser();
    if (stored && stored.expired) {
      // Kept meanwhile: when the renewal fails for want of network, the next call tries again.
      this.user = stored;
      await this.renew().catch(() => null);
      return this.user;
    }
    this.setUser(stored);
    return stored;
  }

  dispose(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.listeners.clear();
  }

  getUser = (): User | null => this.user;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  async authorize(target: ProofTarget): Promise<RequestAuthorization | undefined> {
    if (this.user?.expired) await this.renew().catch(() => null);
    const user = this.user;
    if (!user) return undefined;
    if (!isSenderConstrained(user)) return requestAuthorization(user, undefined);
    const proof = await this.options.userManager
      .dpopProof(dpopTarget(target.url), user, target.method.toUpperCase(), target.nonce)
      // No key to sign with (storage cleared, IndexedDB refused): the server refuses the call and
      // the renewal that follows finds the session over.
      .catch(() => undefined);
    return requestAuthorization(user, proof);
  }

  /**
   * Renews the tokens with the refresh token, holding the cross-tab lock. Once the lock is held
   * the stored user is read again: when another tab renewed meanwhile, its tokens are taken and no
   * second refresh is made. `rejectedToken` is an access token the API refused (a 401): a stored
   * user still holding it is renewed even if it looks fresh.
   */
  async renew(options: { rejectedToken?: string } = {}): Promise<User | null> {
    const { userManager: manager, lock } = this.options;
    // The stored user is gone and the silent sign-in decides whether there is a session.
    if (this.signingInAgain) return this.signingInAgain;
    return lock.run(async () => {
      const stored = await manager.getUser();
      if (stored && isFresh(stored) && stored.access_token !== options.rejectedToken) {
        this.setUser(stored);
        return stored;
      }
      if (!stored?.refresh_token) {
        await manager.removeUser();
        this.setUser(null);
        return null;
      }
      try {
        // Bounded: this tab holds every tab's lock meanwhile, and a refresh the provider never
        // answered would stop every API call of every tab.
        const renewed = await manager.signinSilent({ silentRequestTimeoutInSeconds: PROVIDER_REQUEST_TIMEOUT_S });
        this.setUser(renewed);
        return renewed;
      } catch (error) {
        if (!sessionIsOver(error)) throw error;
        await manager.removeUser();
        this.setUser(null);
        return null;
      }
    });
  }

  async signIn(returnTo: string): Promise<void> {
    await this.options.userManager.signinRedirect({ state: { returnTo: safeReturnTo(returnTo, this.options.callbackPath) } });
  }

  /**
   * Finishes the sign-in on the callback route; resolves with the path to return to. In the hidden
   * frame of a silent sign-in it hands the answer to the window that opened the frame, which ends
   * the sign-in and removes the frame: it then never resolves, so the frame goes nowhere meanwhile.
   */
  async completeSignIn(url?: string): Promise<string> {
    const user = await this.options.userManager.signinCallback(url);
    if (!user) return new Promise<string>(() => undefined);
    this.options.storage?.removeItem(this.signedOutAtKey);
    this.writeSignedInAt(user.profile.sub);
    this.setUser(user);
    // A failure here (the language's phrases not loading, say) must not undo the sign-in.
    try {
      await this.options.onSignedIn?.(user);
    } catch {
      // The interface stays in the language it had.
    }
    return safeReturnTo((user.state as { returnTo?: unknown } | undefined)?.returnTo, this.options.callbackPath);
  }

  async signOut(): Promise<void> {
    // Set before oidc-client-ts removes the user, which tells the page that nobody is signed in.
    this.ended = 'signing-out';
    try {
      this.options.storage?.removeItem(this.signedInAtKey);
      this.options.storage?.setItem(this.signedOutAtKey, String(this.options.now()));
    } catch {
      // Without storage the other tabs sign in again; the provider session ends all the same.
    }
    // The sign-in page this tab ends on says the sign-out went through.
    noteSignedOut();
    try {
      await this.options.userManager.signoutRedirect();
    } catch (error) {
      this.ended = undefined;
      forgetSignedOut();
      throw error;
    }
  }

  sessionEnd = (): SessionEnd | undefined => this.ended;

  sessionExpiresAt(): number | undefined {
    if (!this.user) return undefined;
    const claims = this.user.profile as SessionClaims & { sub: string };
    return sessionExpiresAt(claims, this.readSignedInAt(claims.sub));
  }

  private async reload(): Promise<void> {
    const user = await this.options.userManager.getUser();
    if (!user && this.user && this.signedOutRecently()) {
      await this.signInAgain();
      return;
    }
    this.setUser(user);
  }

  /**
   * After the user closed the session in another tab (spec: "the user is removed and silently
   * signed in again"): a prompt=none sign-in in a hidden frame, which succeeds only while the
   * provider session is alive. Meanwhile the page keeps its user, so nothing flickers when it
   * succeeds; when it fails the user is removed and the tab says the session was closed elsewhere.
   * It waits first for the other tab's sign-out to reach the provider; should it still come first,
   * that sign-out revokes the tokens it got (the whole grant), and the next call finds the session over.
   */
  private signInAgain(): Promise<User | null> {
    const { userManager: manager, lock, signOutSettleMs } = this.options;
    this.signingInAgain ??= new Promise((resolve) => setTimeout(resolve, signOutSettleMs))
      .then(() =>
        lock.run(async () => {
          // Another tab may have signed in again meanwhile: its tokens are taken.
          const stored = await manager.getUser();
          return stored && isFresh(stored) ? stored : manager.signinSilent();
        }),
      )
      .catch(() => null)
      .then((user) => {
        this.signingInAgain = undefined;
        if (!user) this.ended ??= 'closed-elsewhere';
        this.setUser(user);
        return user;
      });
    return this.signingInAgain;
  }

  private signedOutRecently(): boolean {
    try {
      const at = Number(this.options.storage?.getItem(this.signedOutAtKey));
      return at > 0 && this.options.now() - at < SIGN_OUT_NOTICE_MS;
    } catch {
      return false;
    }
  }

  private setUser(user: User | null): void {
    if (user) this.ended = undefined;
    if (user === this.user) return;
    // The same tokens read again are the same user: no re-render for it.
    if (user && this.user && user.access_token === this.user.access_token) return;
    this.user = user;
    for (const listener of [...this.listeners]) listener();
  }

  private writeSignedInAt(sub: string): void {
    try {
      this.options.storage?.setItem(this.signedInAtKey, JSON.stringify({ sub, at: this.options.now() }));
    } catch {
      // Without storage the session length counts from this page load.
    }
  }

  private readSignedInAt(sub: string): number {
    try {
      const saved = JSON.parse(this.options.storage?.getItem(this.signedInAtKey) ?? 'null') as { sub?: unknown; at?: unknown } | null;
      if (saved?.sub === sub && typeof saved.at === 'number') return saved.at;
    } catch {
      // A malformed entry is rewritten below.
    }
    this.writeSignedInAt(sub);
    return this.options.now();
  }
}
