import { describe, expect, it, vi } from 'vitest';
import { UNAUTHORIZED_RENEWAL_LIMIT, UnauthorizedRetry } from './unauthorized-retry';

describe('UnauthorizedRetry', () => {
  it('renews at most three times in a row', async () => {
    const renew = vi.fn(async () => ({ access_token: 'new' }));
    const retry = new UnauthorizedRetry(renew);

    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await retry.renewAfterUnauthorized('old'));

    expect(UNAUTHORIZED_RENEWAL_LIMIT).toBe(3);
    expect(answers).toEqual([true, true, true, false, false]);
    expect(renew).toHaveBeenCalledTimes(3);
    expect(renew).toHaveBeenCalledWith('old');
  });

  it('starts counting again after a success', async () => {
    const renew = vi.fn(async () => ({}));
    const retry = new UnauthorizedRetry(renew);
    for (let i = 0; i < 3; i += 1) await retry.renewAfterUnauthorized('t');
    expect(await retry.renewAfterUnauthorized('t')).toBe(false);

    retry.succeeded();

    expect(retry.renewalsInARow).toBe(0);
    expect(await retry.renewAfterUnauthorized('t')).toBe(true);
    expect(renew).toHaveBeenCalledTimes(4);
  });

  it('does not retry when the renewal brings no user or fails', async () => {
    expect(await new UnauthorizedRetry(async () => null).renewAfterUnauthorized('t')).toBe(false);
    expect(await new UnauthorizedRetry(async () => Promise.reject(new Error('offline'))).renewAfterUnauthorized('t')).toBe(false);
  });
});
