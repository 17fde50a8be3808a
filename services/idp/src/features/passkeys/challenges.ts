import { sha256, type AppContext } from '@gatehouse/core';
import { consumeChallenge, insertChallenge, type ChallengeBinding } from './repository.js';

/** A challenge lives five minutes: the time to touch a key or look at a phone. */
export const CHALLENGE_SECONDS = 5 * 60;

/** Keeps a challenge the options just gave the browser (only its hash), bound to what it was issued for. */
export async function keepChallenge(context: AppContext, challenge: string, binding: ChallengeBinding): Promise<void> {
  await insertChallenge(context.dataSource, sha256(challenge), binding, CHALLENGE_SECONDS);
}

/** Uses the challenge once, if it was issued for this binding and is still live. */
export function spendChallenge(context: AppContext, challenge: string, binding: ChallengeBinding): Promise<boolean> {
  return consumeChallenge(context.dataSource, sha256(challenge), binding);
}

/**
 * The challenge a browser's response answers, read from its `clientDataJSON`; undefined when the
 * response is not shaped like one. The signature over it is checked afterwards, against this value.
 */
export function challengeOf(response: Record<string, unknown>): string | undefined {
  const inner = response.response as Record<string, unknown> | undefined;
  const clientDataJSON = inner && typeof inner === 'object' ? inner.clientDataJSON : undefined;
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 16_384) return undefined;
  try {
    const { challenge } = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : undefined;
  } catch {
    return undefined;
  }
}
