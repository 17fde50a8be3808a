import argon2 from 'argon2';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit, { type LimitFunction } from 'p-limit';
import { AppError } from '../errors/app-error.js';

/** argon2id with OWASP's recommended minimum: 19 MiB, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes and verifies passwords with at most `concurrency` computations at once; the rest queue.
 * argon2 runs on libuv's thread pool, so without a bound a flood of sign-ins would fill the pool
 * and the CPUs, and token, JWKS and database work would wait behind it. The queue is bounded too:
 * past `queueLimit` waiting computations a request is refused at once (429 with Retry-After), so a
 * flood cannot make every sign-in wait for seconds.
 */
export class PasswordHasher {
  private readonly limit: LimitFunction;
  private dummyHash: Promise<string> | undefined;

  constructor(
    concurrency = availableParallelism(),
    private readonly options: typeof ARGON2_OPTIONS = ARGON2_OPTIONS,
    private readonly queueLimit = Number.POSITIVE_INFINITY,
  ) {
    this.limit = pLimit(Math.max(1, concurrency));
  }

  /** Refuses (429) when the queue is full; call before reserving anything that a refusal would leave behind. */
  assertCapacity(): void {
    if (this.limit.pendingCount >= this.queueLimit) throw new AppError('errors.busy', 429, { retryAfter: 1 });
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    try {
      this.assertCapacity();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.limit(work);
  }

  hash(password: string): Promise<string> {
    return this.run(() => argon2.hash(password, this.options));
  }

  /** False for a missing or malformed hash, never an exception. */
  verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) return this.verifyNothing(password);
    return this.run(async () => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    });
  }

  /** True when the hash was made with other parameters than today's (rehash it at sign-in). */
  needsRehash(hash: string): boolean {
    try {
      return argon2.needsRehash(hash, this.options);
    } catch {
      return true;
    }
  }

  /**
   * Spends the same time as a real verification and answers false: used for unknown user names,
   * so the answer's timing does not reveal whether an account exists.
   */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= argon2.hash(randomBytes(16).toString('hex'), this.options);
    const hash = await this.dummyHash;
    await this.run(() => argon2.verify(hash, password).catch(() => false));
    return false;
  }

  get pending(): number {
    return this.limit.pendingCount + this.limit.activeCount;
  }
}

const defaultHasher = new PasswordHasher();

export function hashPassword(password: string): Promise<string> {
  return defaultHasher.hash(password);
}

export function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  return defaultHasher.verify(hash, password);
}

const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
/** Symbols no shell gives a meaning to, unquoted: a generated password pastes into a command line as it is. */
const SYMBOLS = '%+,-.:=@_';

/** A random password that satisfies the policy (every character class, 20 characters), of characters safe on a command line. */
export function generatePassword(length = 20): string {
  const all = UPPER + LOWER + DIGITS + SYMBOLS;
  const chars = [UPPER, LOWER, DIGITS, SYMBOLS].map((set) => set[randomInt(set.length)]!);
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** Random tokens (PATs, reset links) are stored as SHA-256, never in plain text. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
