import type { User } from 'oidc-client-ts';

/** The claims the provider puts in the portal's ID token (see services/idp oidc/account.ts). */
export interface PortalProfile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  preferred_username?: string;
  locale?: string;
  /** The user's area, e.g. 'Customers'. */
  area?: string;
  internal_category?: string;
  /** The user's roles in the portal application. */
  roles?: string[];
  groups?: unknown;
  auth_time?: number;
  /** Present while a God user is signed in as this user (Identify As): who acts (RFC 8693). */
  act?: { sub: string; name?: string };
  /** A session end (epoch seconds) some providers add; ours does not. */
  exp_time?: number;
}

export function profileOf(user: User | null | undefined): PortalProfile | undefined {
  return user ? (user.profile as unknown as PortalProfile) : undefined;
}

/** First and last name, else the profile's name claim (the spec's fallback), else the e-mail. */
export function fullName(profile: PortalProfile | undefined): string {
  if (!profile) return '';
  const parts = [profile.given_name, profile.family_name].filter((part): part is string => Boolean(part?.trim()));
  return parts.length ? parts.join(' ') : (profile.name ?? profile.email ?? '');
}

export function firstName(profile: PortalProfile | undefined): string {
  return profile?.given_name?.trim() || fullName(profile).split(' ')[0] || '';
}

/** Up to two letters for the avatar: first and last name (of an e-mail, its local part). */
export function initials(profile: PortalProfile | undefined): string {
  const name = fullName(profile);
  const words = (name.includes('@') ? name.split('@')[0]! : name).split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words.slice(0, 1);
  return letters.map((word) => word[0]!.toLocaleUpperCase()).join('');
}

/** The login name sent to the password-reset call: the login name is the e-mail address. */
export function userNameOf(profile: PortalProfile | undefined): string | undefined {
  return profile?.preferred_username ?? profile?.email;
}
