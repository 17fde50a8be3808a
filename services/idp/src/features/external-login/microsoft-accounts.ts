import type { AppContext } from '@gatehouse/core';
import type { MicrosoftIdentity } from './microsoft-client.js';

import { ExternalLoginRepository } from './repository.js';

export { MICROSOFT } from './repository.js';

/** What the sign-in needs of the user a Microsoft identity leads to. */
export interface LinkedUser {
  id: string;
  userName: string;
  draft: boolean;
  locked: boolean;
  lockoutEnd: Date | null;
  linkId: string;
}

/** Why no user could be found or made for an identity; `code` is the message's i18n key. */
export interface NoAccount {
  ok: false;
  code: 'externalLogin.no_account' | 'externalLogin.email_in_use' | 'externalLogin.provisioning_failed';
  reason: string;
  userId?: string;
}

export type AccountResult = { ok: true; user: LinkedUser; how: 'linked' | 'group-domain' | 'provisioned' } | NoAccount;

const inDomains = (email: string, domains: string[]) => {
  const domain = email.split('@')[1] ?? '';
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
};

/**
 * Microsoft identities and the local users they lead to. An identity is known by its (tid, oid)
 * link only: its name alone never reaches an existing account, except a group-domain account whose
 * user name is that name, which the group's own tenant vouches for. The local account's e-mail
 * column never links anything.
 */
export class MicrosoftAccounts {
  constructor(
    private readonly context: AppContext,
    /** Whether a user name must sign in with Microsoft (group domains and fragment). */
    private readonly isGroupUser: (email: string) => boolean,
    private readonly repository = new ExternalLoginRepository(context),
  ) {}

  /** The user of an identity: by its link, else by group-domain user name, else newly provisioned. */
  async resolve(identity: MicrosoftIdentity, language: string): Promise<AccountResult> {
    const linked = await this.linked(identity);
    if (linked) return { ok: true, user: linked, how: 'linked' };
    const { email } = identity;
    if (!email) return { ok: false, code: 'externalLogin.no_account', reason: 'Microsoft gave no e-mail address' };
    if (!identity.emailVerifiedByTenant) {
      return { ok: false, code: 'externalLogin.no_account', reason: 'Unlinked account whose e-mail the tenant does not vouch for' };
    }
    if (this.isGroupUser(email)) {
      const local = await this.repository.localUser(email);
      // The first sign-in of a group-domain account links the local account of the same user name.
      if (local) {
        await this.repository.link(local.id, identity, email);
        const user = await this.linked(identity);
        if (user) return { ok: true, user, how: 'group-domain' };
      }
    }
    const { autoProvisionDomains, provisionArea } = this.context.config.microsoft;
    if (!inDomains(email, autoProvisionDomains)) {
      return { ok: false, code: 'externalLogin.no_account', reason: 'No linked or matching account, and no auto-provisioning for this domain' };
    }
    const result = await this.repository.provision(identity, {
      email,
      firstName: identity.firstName?.slice(0, 100) ?? null,
      lastName: identity.lastName?.slice(0, 100) ?? null,
      language,
      area: provisionArea ?? null,
    });
    if (!result?.area_found) {
      this.context.logger.error({ area: provisionArea ?? '(default)' }, 'Microsoft auto-provisioning: the area does not exist');
      return { ok: false, code: 'externalLogin.provisioning_failed', reason: `Provisioning area ${provisionArea ?? '(default)'} not found` };
    }
    const user = await this.linked(identity);
    if (user) return { ok: true, user, how: result.user_id ? 'provisioned' : 'linked' };
    const existing = await this.repository.localUser(email);
    return { ok: false, code: 'externalLogin.email_in_use', reason: 'A local account has this user name but no link to this Microsoft account', userId: existing?.id };
  }

  /** The linked user, with the link's e-mail brought up to date (Microsoft's e-mail may change, the link not). */
  private async linked(identity: MicrosoftIdentity): Promise<LinkedUser | undefined> {
    const row = await this.repository.linkedUser(identity);
    if (!row) return undefined;
    if (identity.email && row.link_email !== identity.email) await this.repository.updateLinkEmail(row.link_id, identity.email);
    return { id: row.id, userName: row.user_name, draft: row.draft, locked: row.locked, lockoutEnd: row.lockout_end, linkId: row.link_id };
  }
}
