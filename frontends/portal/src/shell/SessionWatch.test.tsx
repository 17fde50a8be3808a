import { act, fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { createTestI18n } from '../test-utils';
import { formatCountdown } from './session-timers';
import { SessionWatch } from './SessionWatch';

const MINUTE = 60_000;
let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-02T09:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
});

function renderWatch(expiresAt: number, onSignOut = vi.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <SessionWatch expiresAt={expiresAt} onSignOut={onSignOut} />
    </I18nextProvider>,
  );
  return onSignOut;
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('SessionWatch', () => {
  it('warns after 10 minutes without activity, counting down to the end of the session', async () => {
    renderWatch(Date.now() + 60 * MINUTE);

    await advance(10 * MINUTE - 1000);
    expect(screen.queryByText('Are you still there?')).not.toBeInTheDocument();

    await advance(1000);
    expect(screen.getByText('Are you still there?')).toBeInTheDocument();
    expect(screen.getByText(/Your session expires in 50:00\./)).toBeInTheDocument();

    await advance(5000);
    expect(screen.getByText(/Your session expires in 49:55\./)).toBeInTheDocument();
  });

  it('puts the idle time back to zero at each activity, and hides the warning at the next one', async () => {
    renderWatch(Date.now() + 60 * MINUTE);

    await advance(9 * MINUTE);
    fireEvent.keyDown(window, { key: 'a' });
    await advance(9 * MINUTE);
    expect(screen.queryByText('Are you still there?')).not.toBeInTheDocument();

    await advance(MINUTE);
    expect(screen.getByText('Are you still there?')).toBeInTheDocument();

    fireEvent.mouseMove(window);
    await advance(0);
    expect(screen.queryByText('Are you still there?')).not.toBeInTheDocument();
  });

  it('says the session has expired, counts 5 seconds down, then signs out', async () => {
    const onSignOut = renderWatch(Date.now() + 2000);

    await advance(2000);
    const dialog = screen.getByRole('dialog', { name: 'Session expired' });
    expect(dialog).toHaveTextContent('Your session has expired.');
    expect(dialog).toHaveTextContent('You will be signed out in 5 seconds.');

    await advance(4000);
    expect(dialog).toHaveTextContent('You will be signed out in 1 second.');
    expect(onSignOut).not.toHaveBeenCalled();

    await advance(1000);
    expect(onSignOut).toHaveBeenCalledTimes(1);

    await advance(5000);
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });

  it('signs out at once on Ok', async () => {
    const onSignOut = renderWatch(Date.now() + 1000);
    await advance(1000);

    fireEvent.click(screen.getByRole('button', { name: 'Ok' }));

    expect(onSignOut).toHaveBeenCalledTimes(1);
    await advance(5000);
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });

  it('shows the expiry instead of the idle warning once both apply', async () => {
    renderWatch(Date.now() + 11 * MINUTE);

    await advance(10 * MINUTE);
    expect(screen.getByText('Are you still there?')).toBeInTheDocument();

    await advance(MINUTE);
    expect(screen.queryByText('Are you still there?')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Session expired' })).toBeInTheDocument();
  });
});

describe('formatCountdown', () => {
  it('writes hours, minutes and seconds', () => {
    expect(formatCountdown(23 * 3600_000 + 59 * 60_000 + 59_000)).toBe('23:59:59');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});
