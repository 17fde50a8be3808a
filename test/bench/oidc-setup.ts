// What the provider bench and its contenders' processes (oidc-server.ts) agree on.

export const SECRET = 'bench-secret-0123456789-abcdefghijklmno';
export const PASSWORD = 'Bench-password-42!';
/** Accounts to sign in with, one sign-in at a time each: the product refuses a burst of attempts on one account. */
export const ACCOUNTS = 96;
export const accountName = (i: number) => `bench${i}@example.com`;

/** A question of the bench to a contender's process: its CPU time so far (ms), its resident memory (bytes), argon2's cost there, stop. */
export type Question = { op: 'cpu' } | { op: 'memory' } | { op: 'argon2Cpu'; count: number } | { op: 'argon2Rate'; seconds: number; workers: number } | { op: 'stop' };
export type Request = Question & { id: number };

/** A contender's message: it is listening, or the answer to a question. */
export type Reply = { ready: { url: string; issuerPath: string } } | { id: number; result: unknown } | { id: number; error: string };
