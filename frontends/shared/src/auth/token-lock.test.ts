import { describe, expect, it, vi } from 'vitest';
import { createTokenLock, TOKEN_REFRESH_LOCK } from './token-lock';

describe('createTokenLock', () => {
  it('takes the shared Web Lock for each task', async () => {
    const request = vi.fn((_name: string, _options: LockOptions, callback: () => Promise<unknown>) => callback());
    const lock = createTokenLock({ request });

    expect(await lock.run(async () => 42)).toBe(42);
    expect(request).toHaveBeenCalledWith(TOKEN_REFRESH_LOCK, { mode: 'exclusive' }, expect.any(Function));
  });

  it('runs the tasks of this tab one after the other without the Web Locks API', async () => {
    const lock = createTokenLock(undefined);
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`${name} end`);
      if (name === 'a') throw new Error('a failed');
      return name;
    };

    const results = await Promise.allSettled([lock.run(task('a')), lock.run(task('b'))]);

    expect(events).toEqual(['a start', 'a end', 'b start', 'b end']);
    expect(results[0].status).toBe('rejected');
    expect(results[1]).toEqual({ status: 'fulfilled', value: 'b' });
  });
});
