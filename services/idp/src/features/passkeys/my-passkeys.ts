import { AppError, type AppContext, type PasskeySummary } from '@gatehouse/core';
import { announceFactorChange, type Mailer } from '@gatehouse/core/mail';
import { MAX_PASSKEYS, type AddPasskeyBody, type Passkey, type ProfileSuccess } from '@gatehouse/contracts';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { requiresProfessionalAccount } from '../account/password-steps.js';
import type { ProfileRequest } from '../profile/secret-proof.js';
import { assertRecent } from '../security/recent.js';
import { registrationOptions, verifyRegistration, type VerifiedRegistration } from './ceremonies.js';
import { challengeOf, keepChallenge, spendChallenge } from './challenges.js';
import { deviceOf, relyingPartyOf } from './relying-party.js';
import { credentialsOf, deletePasskey, findPasskeyOwner, insertPasskey, renamePasskey, type PasskeyOwner } from './repository.js';

/** The name of a passkey added from a browser that says nothing of itself. */
const DEFAULT_NAME = 'Passkey';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DONE: ProfileSuccess = { success: true, errors: [] };

/** A passkey as the API shows it: names and dates, never its key. */
export function presentPasskey(passkey: PasskeySummary): Passkey {
  return {
    ...passkey,
    createdAt: passkey.createdAt.toISOString(),
    lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Stores a verified new passkey for the user, named as they chose or after the browser it was
 * added from ("Chrome on Windows"). The user's row is locked meanwhile, so parallel additions
 * cannot go past the most an account holds.
 */
export async function storePasskey(context: AppContext, userId: string, registration: VerifiedRegistration, naming: { name?: string; userAgent?: string | null }): Promise<PasskeySummary> {
  const deviceHint = deviceOf(naming.userAgent, { version: false });
  const name = naming.name ?? deviceHint ?? DEFAULT_NAME;
  return context.dataSource.transaction(async (tx) => {
    const owner = await findPasskeyOwner(tx, userId, true);
    if (!owner) throw new AppError('errors.unauthorized', 401);
    if (owner.passkeyCount >= MAX_PASSKEYS) throw new AppError('account.too_many_passkeys', 409, { max: MAX_PASSKEYS });
    const added = await insertPasskey(tx, { userId, ...registration, name, deviceHint });
    if (!added) throw new AppError('account.passkey_already_registered', 409);
    return added;
  });
}

/**
 * A signed-in user's passkeys ("My security"): adding one needs a recent sign-in (or the password
 * confirmed) and is told to the user by mail, as is a removal; renaming needs neither.
 */
export class MyPasskeys {
  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
    private readonly mailer: Mailer,
  ) {}

  /** Options to create a passkey, with a challenge bound to this user and session. */
  async options(request: ProfileRequest): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const owner = await this.owner(request.accountId);
    await assertRecent(this.context, this.host, request.sessionUid);
    if (owner.passkeyCount >= MAX_PASSKEYS) throw new AppError('account.too_many_passkeys', 409, { max: MAX_PASSKEYS });
    const options = await registrationOptions(relyingPartyOf(this.context), owner, await credentialsOf(this.context.dataSource, owner.id));
    await keepChallenge(this.context, options.challenge, { purpose: 'Register', userId: owner.id, sessionUid: request.sessionUid });
    return options;
  }

  /** Adds the passkey the browser created for this session's options (made with the user verified). */
  async add(request: ProfileRequest, body: Pick<AddPasskeyBody, 'response' | 'name'>): Promise<Passkey> {
    const owner = await this.owner(request.accountId);
    await assertRecent(this.context, this.host, request.sessionUid);
    const challenge = challengeOf(body.response);
    const binding = { purpose: 'Register' as const, userId: owner.id, sessionUid: request.sessionUid };
    if (!challenge || !(await spendChallenge(this.context, challenge, binding))) throw new AppError('account.passkey_not_added', 400);
    const registration = await verifyRegistration(relyingPartyOf(this.context), body.response, challenge);
    if (!registration) throw new AppError('account.passkey_not_added', 400);
    const added = await storePasskey(this.context, owner.id, registration, { name: body.name, userAgent: request.userAgent });
    await announceFactorChange(this.context, this.mailer, owner.id, 'passkey_added', { passkeyName: added.name, ip: request.ip, userAgent: request.userAgent });
    return presentPasskey(added);
  }

  /** Renames one of the user's own passkeys; any other id is not found. */
  async rename(accountId: string, passkeyId: string, name: string): Promise<Passkey> {
    const renamed = UUID.test(passkeyId) ? await renamePasskey(this.context.dataSource, accountId, passkeyId, name) : undefined;
    if (!renamed) throw new AppError('errors.not_found', 404);
    return presentPasskey(renamed);
  }

  /**
   * Removes one of the user's own passkeys (any other id is not found). The last one stays while
   * a tenant of the user accepts only phishing-resistant factors: without it the user could not
   * sign in there.
   */
  async remove(request: ProfileRequest, passkeyId: string): Promise<ProfileSuccess> {
    await assertRecent(this.context, this.host, request.sessionUid);
    if (!UUID.test(passkeyId)) throw new AppError('errors.not_found', 404);
    const name = await this.context.dataSource.transaction(async (tx) => {
      const owner = await findPasskeyOwner(tx, request.accountId, true);
      const removed = owner ? await deletePasskey(tx, owner.id, passkeyId) : undefined;
      if (!owner || removed === undefined) throw new AppError('errors.not_found', 404);
      if (owner.phishingResistantOnly && owner.passkeyCount <= 1) throw new AppError('account.last_phishing_resistant_factor', 409);
      return removed;
    });
    await announceFactorChange(this.context, this.mailer, request.accountId, 'passkey_removed', { passkeyName: name, ip: request.ip, userAgent: request.userAgent });
    return DONE;
  }

  /** The signed-in user, when passkeys are offered to them: a group-domain account signs in with Microsoft only. */
  private async owner(accountId: string): Promise<PasskeyOwner> {
    const owner = await findPasskeyOwner(this.context.dataSource, accountId);
    if (!owner) throw new AppError('errors.unauthorized', 401);
    if (requiresProfessionalAccount(this.context, owner.userName)) throw new AppError('account.passkeys_not_offered', 403);
    return owner;
  }
}
