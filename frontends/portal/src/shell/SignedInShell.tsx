import { useApiDependencies } from '@gatehouse/frontend-shared';
import { useMemo } from 'react';
import { Provider as ReduxProvider } from 'react-redux';
import { AuthProvider } from '../auth/auth-context';
import { createPortalStore } from '../store/store';
import type { SessionLike } from './SignedInApp';
import { ShellLayout } from './ShellLayout';

/** The signed-in shell over a loaded session: its API store and the layout. */
export default function SignedInShell({ session }: { session: SessionLike }) {
  const { auth, config } = session;
  const dependencies = useApiDependencies(auth);
  const store = useMemo(() => createPortalStore(dependencies), [dependencies]);
  return (
    <AuthProvider auth={auth} config={config}>
      <ReduxProvider store={store}>
        <ShellLayout />
      </ReduxProvider>
    </AuthProvider>
  );
}
