import { useEffect, useRef, useState } from 'react';

/** The spec's idle time before the warning: 10 minutes without activity. */
export const IDLE_TIMEOUT_MS = 600_000;

/** The spec's countdown between 'Your session has expired.' and the sign-out. */
export const EXPIRED_COUNTDOWN_SECONDS = 5;

// Keyboard, pointer, touch, wheel and scrolling (of any element, hence the capture) are activity.
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

// setTimeout fires at once beyond 2^31-1 ms (about 24.8 days); longer waits are done in steps.
const MAX_TIMEOUT_MS = 2_147_483_647;

/** True after `timeoutMs` without user activity, false again at the next activity. */
export function useIdle(timeoutMs: number): boolean {
  const [idle, setIdle] = useState(false);
  const lastActivity = useRef(0);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isIdle = false;
    const schedule = () => {
      clearTimeout(timer);
      const remaining = lastActivity.current + timeoutMs - Date.now();
      timer = setTimeout(check, Math.max(0, remaining));
    };
    // Checked when the timer fires rather than re-armed at every mouse move: moves are many.
    const check = () => {
      if (Date.now() - lastActivity.current >= timeoutMs) {
        isIdle = true;
        setIdle(true);
      } else {
        schedule();
      }
    };
    const onActivity = () => {
      lastActivity.current = Date.now();
      if (isIdle) {
        isIdle = false;
        setIdle(false);
        schedule();
      }
    };
    lastActivity.current = Date.now();
    schedule();
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { capture: true, passive: true });
    return () => {
      clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
    };
  }, [timeoutMs]);

  return idle;
}

/** True once `at` (epoch ms) has passed. */
export function useHasPassed(at: number | undefined): boolean {
  // The moment that was seen to pass: a new `at` is not passed until its own timer says so.
  const [passedAt, setPassedAt] = useState(() => (at !== undefined && Date.now() >= at ? at : undefined));

  useEffect(() => {
    if (at === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const remaining = at - Date.now();
      if (remaining <= 0) setPassedAt(at);
      else timer = setTimeout(check, Math.min(remaining, MAX_TIMEOUT_MS));
    };
    timer = setTimeout(check, Math.max(0, Math.min(at - Date.now(), MAX_TIMEOUT_MS)));
    return () => clearTimeout(timer);
  }, [at]);

  return at !== undefined && passedAt === at;
}

/** The current time, updated every second while `active` (and at once when it becomes active). */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!active) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [active]);

  return now;
}

/** A duration as h:mm:ss (or m:ss under an hour), never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(hours ? 2 : 1, '0')}:${String(seconds).padStart(2, '0')}`;
  return hours ? `${hours}:${mmss}` : mmss;
}
