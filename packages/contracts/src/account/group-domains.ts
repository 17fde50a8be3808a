/** Who must sign in with the professional (Microsoft) account rather than with a password. */
export interface GroupSignInRule {
  /** E-mail domains of the group's own staff. */
  groupDomains: readonly string[];
  /** A fragment (the Spanish group domain) that, anywhere in a user name, also makes it a group user. */
  groupDomainFragment?: string | undefined;
}

/**
 * Whether a user name belongs to a group user: its domain is one of the group domains or a
 * subdomain of one, or it contains the fragment (case-insensitive). The server refuses their
 * password; the sign-in page hides the password field as soon as the name is typed.
 */
export function requiresGroupSignIn(userName: string, { groupDomains, groupDomainFragment }: GroupSignInRule): boolean {
  const name = userName.trim().toLowerCase();
  const domain = name.split('@')[1] ?? '';
  const inGroupDomain = (groupDomain: string) => {
    const d = groupDomain.toLowerCase();
    return d !== '' && (domain === d || domain.endsWith(`.${d}`));
  };
  return (domain !== '' && groupDomains.some(inGroupDomain)) || Boolean(groupDomainFragment && name.includes(groupDomainFragment.toLowerCase()));
}
