/** Default name of the Web Lock every tab takes before it refreshes the tokens. */
export const TOKEN_REFRESH_LOCK = 'gatehouse-token-refresh';

/** Runs one task at a time, across the tabs of the browser where it can. */
export interface TokenLock {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** The one call of the Web Locks API used here (navigator.locks fits it). */
export interface LockRequester {
  request(name: string, options: LockOptions, callback: () => Promise<unknown>): Promise<unknown>;
}

/**
 * With the Web Locks API, tabs take turns: a refresh token rotates at every use, so two tabs
 * refreshing at once would have the provider refuse the second (and revoke the grant). Without
 * it (old browsers, tests), tasks of this tab still run one after the other.
 */
export function createTokenLock(
  locks: LockRequester | undefined = globalThis.navigator?.locks,
  name: string = TOKEN_REFRESH_LOCK,
): TokenLock {
  if (locks) {
    return {
      // The lock's promise settles with the task's result.
      run: <T,>(task: () => Promise<T>) => locks.request(name, { mode: 'exclusive' }, task) as Promise<T>,
    };
  }
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(task) {
      const result = tail.then(task, task);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
