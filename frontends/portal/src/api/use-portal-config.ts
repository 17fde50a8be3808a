import { useEffect, useState } from 'react';
import { fetchPortalConfig, type PortalConfig } from './portal-config';

export type PortalConfigState =
  | { status: 'loading' }
  | { status: 'ready'; config: PortalConfig }
  | { status: 'error'; error: Error };

export function usePortalConfig(): PortalConfigState {
  const [state, setState] = useState<PortalConfigState>({ status: 'loading' });

  useEffect(() => {
    // Aborting drops the response of a request made for an unmounted page (and the
    // duplicate request StrictMode makes in development).
    const controller = new AbortController();
    fetchPortalConfig(controller.signal).then(
      (config) => setState({ status: 'ready', config }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
    return () => controller.abort();
  }, []);

  return state;
}
