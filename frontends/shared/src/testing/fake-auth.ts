import type { User } from 'oidc-client-ts';
import { vi } from 'vitest';
import type { OidcAuth, SessionEnd } from '../auth/auth-service';
import { dpopTarget, requestAuthorization, type ProofTarget } from '../auth/dpop';

export interface FakeAuthOptions {
  /** What `sessionExpiresAt()` answers (epoch ms); undefined by default. */
  expiresAt?: number;
}

/** The session of a test: its user is set by the test, and what the UI asks of it is recorded. */
export class FakeAuth implements OidcAuth {
  private listeners = new Set<() => void>();
  signIn = vi.fn(async (_returnTo: string) => undefined);
  signOut = vi.fn(async () => undefined);
  renew = vi.fn(async (_options?: { rejectedToken?: string }) => this.user);
  expiresAt: number | undefined;
  ended: SessionEnd | undefined;

  constructor(
    private user: User | null,
    options: FakeAuthOptions = {},
  ) {
    this.expiresAt = options.expiresAt;
  }

  getUser = () => this.user;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  /** The user's token, with a stand-in proof naming the call (`fake-proof GET https://…/path`, then the nonce if any). */
  authorize = async ({ url, method, nonce }: ProofTarget) =>
    this.user ? requestAuthorization(this.user, ['fake-proof', method.toUpperCase(), dpopTarget(url), nonce].filter(Boolean).join(' ')) : undefined;
  sessionExpiresAt = () => this.expiresAt;
  sessionEnd = () => this.ended;

  setUser(user: User | null): void {
    this.user = user;
    for (const listener of this.listeners) listener();
  }
}
