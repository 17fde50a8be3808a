import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { CHALLENGE_SECONDS } from './challenges.js';
import type { RelyingParty } from './relying-party.js';
import type { PasskeyOwner, StoredPasskey } from './repository.js';

// The WebAuthn ceremonies, through SimpleWebAuthn: options for the browser, and the checks of what
// it answers. A check that fails for any reason (signature, origin, RP id, challenge, flags, a
// malformed response) is one answer: not verified.

/** The transports a browser may report; anything else is not stored. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** A credential a browser may use (or must not register again). */
export interface CredentialRef {
  id: string;
  transports: string[];
}

const knownTransports = (transports: readonly unknown[] | undefined) => (transports ?? []).filter((t): t is string => typeof t === 'string' && TRANSPORTS.has(t));

const descriptors = (credentials: readonly CredentialRef[]) => credentials.map(({ id, transports }) => ({ id, transports: knownTransports(transports) }));

/**
 * Options to sign in with a passkey: any passkey of this site on the device when `credentials` is
 * empty (discoverable), else one of them. `userVerification` is `required` for a passkey alone.
 */
export function assertionOptions(rp: RelyingParty, credentials: readonly CredentialRef[], userVerification: 'required' | 'preferred'): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({ rpID: rp.id, allowCredentials: descriptors(credentials), userVerification, timeout: CHALLENGE_SECONDS * 1000 });
}

/** What a verified assertion tells of the passkey that made it. */
export interface VerifiedAssertion {
  counter: number;
  backedUp: boolean;
  userVerified: boolean;
}

/**
 * Checks an assertion of `passkey` for this relying party and challenge. The signature counter is
 * compared by the caller, after the signature: a counter that went back on a valid signature is a
 * cloned authenticator, not a forgery.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  passkey: StoredPasskey,
  response: Record<string, unknown>,
  challenge: string,
  requireUserVerification: boolean,
): Promise<VerifiedAssertion | undefined> {
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: passkey.publicKey, counter: 0 },
      requireUserVerification,
    });
    if (!verified || authenticationInfo.credentialID !== passkey.credentialId) return undefined;
    return { counter: authenticationInfo.newCounter, backedUp: authenticationInfo.credentialBackedUp, userVerified: authenticationInfo.userVerified };
  } catch {
    return undefined;
  }
}

/**
 * Options to create a passkey for `owner`: discoverable and user-verifying, no attestation, the
 * user's passkeys excluded. The user handle is the user's id, never their e-mail address.
 */
export function registrationOptions(rp: RelyingParty, owner: PasskeyOwner, exclude: readonly CredentialRef[]): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: owner.userName,
    userDisplayName: owner.displayName,
    userID: Buffer.from(owner.id.replaceAll('-', ''), 'hex'),
    attestationType: 'none',
    excludeCredentials: descriptors(exclude),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    timeout: CHALLENGE_SECONDS * 1000,
  });
}

/** A new passkey, as a verified registration describes it. */
export interface VerifiedRegistration {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  aaguid: string | null;
}

const NO_AAGUID = '00000000-0000-0000-0000-000000000000';

/** Checks a new credential for this relying party and challenge, made with the user verified. */
export async function verifyRegistration(rp: RelyingParty, response: Record<string, unknown>, challenge: string): Promise<VerifiedRegistration | undefined> {
  try {
    const result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    const { credential, credentialDeviceType, credentialBackedUp, aaguid } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: knownTransports(credential.transports),
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      aaguid: aaguid && aaguid !== NO_AAGUID ? aaguid : null,
    };
  } catch {
    return undefined;
  }
}
