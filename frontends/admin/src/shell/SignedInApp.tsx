import { useApiDependencies, useLoad, type OidcAuth } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { setApiDependencies } from '../auth/api-dependencies';
import { AuthProvider } from '../auth/auth-context';
import { RequireAdmin, type RequireAdminProps } from '../auth/RequireAdmin';
import { loadAdminSession } from '../auth/session';
import { DisclaimerGate } from '../disclaimer-gate/DisclaimerGate';
import { createAdminStore } from '../store';
import { AdminLayout } from './AdminLayout';
import { Splash } from './Splash';

/** What the signed-in console needs of the session (tests hand in their own). */
export interface SessionLike {
  auth: OidcAuth;
}

export interface SignedInAppProps extends Pick<RequireAdminProps, 'delayMs' | 'delayFrom' | 'leave'> {
  load?: () => Promise<SessionLike>;
}

function SignedInShell({ auth, ...gate }: { auth: OidcAuth } & Pick<RequireAdminProps, 'delayMs' | 'delayFrom' | 'leave'>) {
  const dependencies = useApiDependencies(auth);
  const store = useMemo(() => createAdminStore(dependencies), [dependencies]);
  // Downloads and uploads (outside RTK Query) use the same session.
  useEffect(() => {
    setApiDependencies(dependencies);
    return () => setApiDependencies(undefined);
  }, [dependencies]);

  return (
    <AuthProvider auth={auth}>
      <ReduxProvider store={store}>
        <RequireAdmin {...gate}>
          <DisclaimerGate>
            <AdminLayout />
          </DisclaimerGate>
        </RequireAdmin>
      </ReduxProvider>
    </AuthProvider>
  );
}

/**
 * The signed-in console (every route but the callback and not-found): reads the configuration,
 * restores the session, then hands over to the entry rule and the layout.
 */
export default function SignedInApp({ load = loadAdminSession, ...gate }: SignedInAppProps) {
  const { t } = useTranslation('admin');
  const { state, retry } = useLoad(load);

  if (state.status === 'loading') return <Splash />;
  if (state.status === 'error') {
    return (
      <Result
        status="error"
        title={t('shell.errorTitle')}
        subTitle={`${t('shell.errorText')} (${state.message})`}
        extra={
          <Button type="primary" onClick={retry}>
            {t('shell.retry')}
          </Button>
        }
      />
    );
  }
  return <SignedInShell auth={state.value.auth} {...gate} />;
}
