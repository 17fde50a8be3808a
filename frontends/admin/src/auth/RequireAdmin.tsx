import { useSignInRedirect } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMeQuery } from '../api/me';
import { statusOf } from '../api/errors';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { Splash } from '../shell/Splash';
import { useEntryPrefetch } from '../shell/entry-prefetch';
import { IDENTITY_URL } from '../routes';
import { useAuth, useAuthUser } from './auth-context';
import { mayEnterConsole } from './console-access';
import { forgetEntry, noteEntry, readEntry } from './entry-time';

/** The spec's delay before the console's content appears (the splash shows meanwhile). */
export const ENTRY_DELAY_MS = 1000;

/** Leaves the console for the identity URL (a full page load: the portal is another SPA). */
export function leaveConsole(url: string = IDENTITY_URL): void {
  window.location.assign(url);
}

/**
 * Whether `delayMs` have passed since `from` (a `performance.now()` reading; 0 is the page's load).
 * Counted from the page's load, the splash's second runs while the page loads, completes the
 * sign-in and asks `/me`, rather than after them: coming back from the sign-in, the console does
 * not add a whole second to the work it already waited for.
 */
function useDelayPassed(delayMs: number, from: number): boolean {
  const [passed, setPassed] = useState(() => from + delayMs <= performance.now());
  useEffect(() => {
    if (passed) return;
    const timer = setTimeout(() => setPassed(true), Math.max(0, from + delayMs - performance.now()));
    return () => clearTimeout(timer);
  }, [delayMs, from, passed]);
  return passed;
}

export interface RequireAdminProps {
  children: ReactNode;
  /** Tests shorten it. */
  delayMs?: number;
  /** When the delay starts, as a `performance.now()` reading: the page's load unless a test says. */
  delayFrom?: number;
  /** Tests watch it. */
  leave?: (url: string) => void;
}

/**
 * The console's entry rule: nobody signed in goes to the provider's sign-in (and comes back to
 * this page); a signed-in user whose roles open no page of the console is told so and goes to the
 * identity URL; the others see their part of the console once `/me` has answered and the spec's
 * one-second splash is over, counted from when they first asked for the console in this tab (the
 * sign-in in between, if any, took longer than that).
 */
export function RequireAdmin({ children, delayMs = ENTRY_DELAY_MS, delayFrom = 0, leave = leaveConsole }: RequireAdminProps) {
  const { t } = useTranslation('admin');
  const auth = useAuth();
  const user = useAuthUser();
  // From the page's load, or from the person's first request for the console when a sign-in came in between.
  const [from] = useState(() => Math.min(delayFrom, readEntry() ?? delayFrom));
  const delayPassed = useDelayPassed(delayMs, from);
  // Roles come from the API (the server's view), not from token claims.
  const me = useMeQuery(undefined, { skip: !user });
  // 403 from /me: the API itself refuses this user the console.
  const refused = (me.data && !mayEnterConsole(me.data.roles)) || statusOf(me.error) === 403;
  useEntryPrefetch(refused ? undefined : me.data);
  const { ended, returnTo, error: signInError } = useSignInRedirect(auth, user);
  useEffect(() => {
    if (user) forgetEntry();
    else if (!ended) noteEntry();
  }, [user, ended]);

  useEffect(() => {
    if (refused) leave(IDENTITY_URL);
  }, [refused, leave]);

  if (!user) {
    if (ended === 'signing-out') return <Splash label={t('shell.signingOut')} />;
    if (ended === 'closed-elsewhere') {
      return (
        <div className="admin-gate">
          <Alert
            type="info"
            showIcon
            title={t('shell.closedElsewhere')}
            action={
              <Button type="primary" onClick={() => void auth.signIn(returnTo)}>
                {t('shell.signIn')}
              </Button>
            }
          />
        </div>
      );
    }
    if (signInError) {
      return (
        <div className="admin-gate">
          <Alert type="error" showIcon title={t('shell.errorTitle')} description={signInError} />
        </div>
      );
    }
    return <Splash label={t('shell.redirectingToSignIn')} />;
  }
  if (refused) return <Splash label={t('shell.leaving')} />;
  if (me.error) {
    return (
      <div className="admin-gate">
        <ApiErrorAlert error={me.error} />
        <Button type="primary" onClick={() => void me.refetch()} className="admin-gate__retry">
          {t('shell.retry')}
        </Button>
      </div>
    );
  }
  if (!me.data || !delayPassed) return <Splash />;
  return <>{children}</>;
}
