import type { User } from 'oidc-client-ts';
import type { GateTarget } from './disclaimer-gate-api';

/**
 * The console's own application: the client its ID token was issued to (`azp`, else the audience),
 * and the signed-in user.
 */
export function gateTargetOf(user: User | null): GateTarget | undefined {
  if (!user) return undefined;
  const { sub, azp, aud } = user.profile;
  const applicationName = typeof azp === 'string' ? azp : Array.isArray(aud) ? aud[0] : aud;
  return applicationName ? { userId: sub, applicationName } : undefined;
}
