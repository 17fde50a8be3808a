import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

// The authorization code can be redeemed once: StrictMode's second effect run and a re-render
// must share the first attempt instead of failing on a used state.
const attempts = new Map<string, Promise<string>>();

/** Runs `complete(url)` once per callback URL, however often it is asked. */
export function completeSignInOnce(url: string, complete: (url: string) => Promise<string>): Promise<string> {
  let attempt = attempts.get(url);
  if (!attempt) {
    attempt = complete(url);
    attempts.set(url, attempt);
  }
  return attempt;
}

/**
 * The callback route's work: redeems the code in the current URL with `complete` (which resolves
 * with the page to return to), then goes there. Returns the failure's message, if any; the page
 * shows a loader until then.
 */
export function useSignInCallback(complete: (url: string) => Promise<string>): string | undefined {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    completeSignInOnce(window.location.href, complete).then(
      (returnTo) => {
        if (current) void navigate(returnTo, { replace: true });
      },
      (reason: unknown) => {
        if (current) setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
    return () => {
      current = false;
    };
  }, [navigate, complete]);

  return error;
}
