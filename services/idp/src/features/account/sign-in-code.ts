import { randomInt, timingSafeEqual } from 'node:crypto';
import { acceptTotpCode, sha256, type AppContext } from '@gatehouse/core';
import { type Mailer } from '@gatehouse/core/mail';
import { storeSignInCode, type SignInAccount } from './repository.js';
import type { StepContext } from './sign-in-state.js';

/** An e-mailed sign-in code lives 5 minutes (spec). */
export const CODE_LIFETIME_SECONDS = 5 * 60;
/** A new code may be asked for every 30 s, at most 5 times per sign-in. */
export const RESEND_INTERVAL_SECONDS = 30;
export const MAX_RESENDS = 5;
/** A step's token lives as long as the sign-in it belongs to. */
export const STEP_TOKEN_SECONDS = 60 * 60;

/** What a second-factor step's token holds. */
export interface CodeData extends StepContext {
  method: 'email' | 'totp';
  codeHash?: string;
  codeExpiresAt?: number;
  sentAt?: number;
  resends?: number;
}

const codeHash = (tokenId: string, code: string) => sha256(`${tokenId}:${code}`);
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A fresh 6-digit code replaces any previous one of this sign-in, and is mailed; answers when it expires. */
export async function sendSignInCode(context: AppContext, mailer: Mailer, account: SignInAccount, tokenId: string): Promise<number> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const codeExpiresAt = Date.now() + CODE_LIFETIME_SECONDS * 1000;
  await storeSignInCode(context, tokenId, { codeHash: codeHash(tokenId, code), codeExpiresAt });
  await mailer.send({
    to: account.email,
    template: 'sign-in-code',
    language: account.language,
    params: { name: account.firstName ?? account.userName, code, minutes: CODE_LIFETIME_SECONDS / 60 },
  });
  return codeExpiresAt;
}

/** The step's own factor: the authenticator app's code for a TOTP step, the mailed code otherwise. */
export async function codeMatches(context: AppContext, account: SignInAccount, tokenId: string, data: CodeData, code: string): Promise<boolean> {
  if (data.method === 'totp') {
    return Boolean(account.totpEnabledAt) && acceptTotpCode(context.dataSource, context.secrets, account.id, code);
  }
  return data.codeHash !== undefined && !mailedCodeExpired(data) && sameHash(data.codeHash, codeHash(tokenId, code));
}

/** The mailed code of this step is past its 5 minutes. */
export function mailedCodeExpired(data: CodeData): boolean {
  return (data.codeExpiresAt ?? 0) <= Date.now();
}
