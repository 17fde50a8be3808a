import { z } from 'zod';
import { passkeyOptionsSchema } from '../account/sign-in.js';
import { defineRoute, type RouteContract } from '../route.js';
import { profileSuccessSchema } from './profile.js';

const PROFILE = '/api/v1/profile';

/** The most passkeys one account holds. */
export const MAX_PASSKEYS = 20;
/** How many recovery codes are made at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** A factor change needs a sign-in (or a confirmed password) at most this long ago. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

export const passkeyNameSchema = z.string().trim().min(1).max(100);

/** A passkey as its owner (or an administrator) sees it: never its key. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** The browser and system it was last used from ("Chrome on Windows"). */
  lastUsedDevice: z.string().nullable(),
  /** The browser and system it was added from. */
  deviceHint: z.string().nullable(),
  /** Synced by its provider (iCloud Keychain, Google Password Manager…) rather than bound to one device. */
  backedUp: z.boolean(),
  deviceType: z.enum(['singleDevice', 'multiDevice']),
});
export type Passkey = z.output<typeof passkeySchema>;

/** "My security": the user's factors and whether a change needs the password first. */
export const securityOverviewSchema = z.object({
  /** False for a group-domain user (Microsoft sign-in only): no passkey is offered. */
  passkeysOffered: z.boolean(),
  passkeys: z.array(passkeySchema),
  totp: z.object({ enrolled: z.boolean(), enrolledAt: z.string().nullable() }),
  recoveryCodes: z.object({ remaining: z.number().int().min(0), generatedAt: z.string().nullable() }),
  /** A second factor is asked at every sign-in (the user's choice, an authenticator app, or a tenant's rule). */
  secondFactorRequired: z.boolean(),
  /** A tenant of the user accepts only passkeys (or Microsoft) as the second factor. */
  phishingResistantRequired: z.boolean(),
  /** Until when factor changes and ending sessions need no password (ISO date-time); null: the password first. */
  recentUntil: z.string().nullable(),
});
export type SecurityOverview = z.output<typeof securityOverviewSchema>;

/** "Confirm your password" before a factor change, long after signing in. */
export const reauthenticateBodySchema = z.strictObject({ password: z.string().min(1).max(1024) });
export const reauthenticatedSchema = profileSuccessSchema.extend({ recentUntil: z.string() });
export type Reauthenticated = z.output<typeof reauthenticatedSchema>;

export const addPasskeyBodySchema = z.strictObject({
  response: z.record(z.string(), z.unknown()).refine((value) => JSON.stringify(value).length <= 64 * 1024, 'too large'),
  name: passkeyNameSchema.optional(),
});
export type AddPasskeyBody = z.input<typeof addPasskeyBodySchema>;

export const renamePasskeyBodySchema = z.strictObject({ name: passkeyNameSchema });
export type RenamePasskeyBody = z.input<typeof renamePasskeyBodySchema>;

/** Ten new recovery codes, shown once (the previous ones stop working). */
export const recoveryCodesSchema = z.object({ codes: z.array(z.string()), generatedAt: z.string() });
export type RecoveryCodes = z.output<typeof recoveryCodesSchema>;

/** A browser where the user is signed in. */
export const userSessionSchema = z.object({
  id: z.string(),
  /** The session of the browser asking. */
  current: z.boolean(),
  /** "Firefox 133 on Linux", from the browser's user agent; null when unknown. */
  browser: z.string().nullable(),
  ip: z.string().nullable(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  /** How the session was signed in (`pwd`, `otp`, `pop`, `mfa`…). */
  amr: z.array(z.string()),
  /** The applications signed in to through it. */
  applications: z.array(z.string()),
});
export type UserSessionInfo = z.output<typeof userSessionSchema>;

export const userSessionsSchema = z.object({ sessions: z.array(userSessionSchema) });
export type UserSessions = z.output<typeof userSessionsSchema>;

export const endedSessionsSchema = profileSuccessSchema.extend({ ended: z.number().int().min(0) });
export type EndedSessions = z.output<typeof endedSessionsSchema>;

const idParams = z.object({ id: z.string().min(1).max(255) });

/** `/api/v1/profile/*` "My security": passkeys, recovery codes, sessions (the authenticator app is in profileRoutes). */
export const securityRoutes = {
  get: defineRoute({
    method: 'GET',
    path: `${PROFILE}/security`,
    endpoint: 'profile.security',
    access: 'signed-in',
    summary: "The signed-in user's passkeys, authenticator app and recovery codes (never a secret), and whether a change needs the password first",
    response: securityOverviewSchema,
  }),
  reauthenticate: defineRoute({
    method: 'POST',
    path: `${PROFILE}/reauthenticate`,
    endpoint: 'profile.reauthenticate',
    access: 'signed-in',
    summary: 'Confirms the password in this session: factor changes and ending sessions need no password for ten minutes (a wrong one counts toward the lockout)',
    body: reauthenticateBodySchema,
    response: reauthenticatedSchema,
  }),
  passkeyOptions: defineRoute({
    method: 'POST',
    path: `${PROFILE}/passkeys/options`,
    endpoint: 'profile.passkeyOptions',
    access: 'signed-in',
    summary: 'Options for adding a passkey (a single-use challenge bound to this session); needs a recent sign-in',
    response: passkeyOptionsSchema,
    errors: { 403: 'reauthentication needed, or a group-domain account (Microsoft sign-in only)', 409: 'the most passkeys an account may hold' },
  }),
  addPasskey: defineRoute({
    method: 'POST',
    path: `${PROFILE}/passkeys`,
    endpoint: 'profile.addPasskey',
    access: 'signed-in',
    summary: "Adds the passkey the browser created for this session's options; mails the user",
    body: addPasskeyBodySchema,
    response: passkeySchema,
    status: 201,
  }),
  renamePasskey: defineRoute({
    method: 'PATCH',
    path: `${PROFILE}/passkeys/:id`,
    endpoint: 'profile.renamePasskey',
    access: 'signed-in',
    summary: 'Renames one of the signed-in user’s passkeys',
    params: idParams,
    body: renamePasskeyBodySchema,
    response: passkeySchema,
  }),
  removePasskey: defineRoute({
    method: 'DELETE',
    path: `${PROFILE}/passkeys/:id`,
    endpoint: 'profile.removePasskey',
    access: 'signed-in',
    summary: 'Removes a passkey; needs a recent sign-in; the last one cannot go while a tenant accepts only phishing-resistant factors; mails the user',
    params: idParams,
    response: profileSuccessSchema,
  }),
  generateRecoveryCodes: defineRoute({
    method: 'POST',
    path: `${PROFILE}/recoveryCodes`,
    endpoint: 'profile.generateRecoveryCodes',
    access: 'signed-in',
    summary: 'Makes ten new single-use recovery codes, shown once (the previous ones stop working); needs a recent sign-in; mails the user',
    response: recoveryCodesSchema,
  }),
  sessions: defineRoute({
    method: 'GET',
    path: `${PROFILE}/sessions`,
    endpoint: 'profile.sessions',
    access: 'signed-in',
    summary: 'The browsers where the user is signed in: browser, address, started, last seen, applications',
    response: userSessionsSchema,
  }),
  endSession: defineRoute({
    method: 'DELETE',
    path: `${PROFILE}/sessions/:id`,
    endpoint: 'profile.endSession',
    access: 'signed-in',
    summary: 'Signs one session out: its provider session, grants and tokens (refresh tokens included) end; needs a recent sign-in',
    params: idParams,
    response: endedSessionsSchema,
  }),
  endOtherSessions: defineRoute({
    method: 'POST',
    path: `${PROFILE}/sessions/endOthers`,
    endpoint: 'profile.endOtherSessions',
    access: 'signed-in',
    summary: 'Signs every other session of the user out; needs a recent sign-in',
    response: endedSessionsSchema,
  }),
} satisfies Record<string, RouteContract>;
