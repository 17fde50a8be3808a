import { useEffect, useState } from 'react';

/** A sign-in code lives 5 minutes (spec). */
export const CODE_LIFETIME_MS = 5 * 60 * 1000;

/**
 * When the code stops working, by this browser's clock. The server's `codeExpiresAt` is used when it
 * is plausible; a clock more than the code's lifetime apart from the server's would otherwise show
 * the code as already expired (or valid for hours), so the full lifetime is counted instead.
 */
export function codeDeadline(codeExpiresAt: string | null | undefined, now = Date.now()): number {
  const serverDeadline = codeExpiresAt ? Date.parse(codeExpiresAt) : Number.NaN;
  const remaining = serverDeadline - now;
  return remaining > 0 && remaining <= CODE_LIFETIME_MS ? serverDeadline : now + CODE_LIFETIME_MS;
}

/** Milliseconds left until `deadline` (0 once reached), ticking every second; null without a deadline. */
export function useCountdown(deadline: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return undefined;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    };
    // The first tick right away (a new deadline shows its full time), then every second.
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [deadline]);
  return deadline === null ? null : Math.max(0, deadline - now);
}

/** m:ss, as read on a countdown. */
export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
