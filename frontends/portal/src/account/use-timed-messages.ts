import { useCallback, useEffect, useRef, useState } from 'react';

/** How long the server's password-rule errors stay on screen (spec: 10 s). */
export const RULE_ERRORS_VISIBLE_MS = 10_000;

/**
 * Messages (texts, or entries a page filters further) that clear themselves after `visibleMs`;
 * showing new ones restarts the delay.
 */
export function useTimedMessages<T = string>(visibleMs = RULE_ERRORS_VISIBLE_MS): [T[], (messages: T[]) => void] {
  const [messages, setMessages] = useState<T[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback(
    (next: T[]) => {
      clearTimeout(timer.current);
      setMessages(next);
      if (next.length) timer.current = setTimeout(() => setMessages([]), visibleMs);
    },
    [visibleMs],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [messages, show];
}
