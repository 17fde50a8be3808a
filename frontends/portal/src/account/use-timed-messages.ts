import { useCallback, useEffect, useRef, useState } from 'react';

/** How long the server's password-rule errors stay on screen (spec: 10 s). */
export const RULE_ERRORS_VISIBLE_MS = 10_000;

/** Messages that clear themselves after `visibleMs`; showing new ones restarts the delay. */
export function useTimedMessages(visibleMs = RULE_ERRORS_VISIBLE_MS): [string[], (messages: string[]) => void] {
  const [messages, setMessages] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback(
    (next: string[]) => {
      clearTimeout(timer.current);
      setMessages(next);
      if (next.length) timer.current = setTimeout(() => setMessages([]), visibleMs);
    },
    [visibleMs],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [messages, show];
}
