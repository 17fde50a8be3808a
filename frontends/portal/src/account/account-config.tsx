import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { fetchAccountConfig, type AccountConfig } from './account-api';

/** `/api/v1/config` as the account pages see it: still loading, or read (undefined when it failed). */
export type AccountConfigState = { status: 'loading' } | { status: 'ready'; config: AccountConfig | undefined };

const AccountConfigContext = createContext<AccountConfigState>({ status: 'loading' });

/**
 * Reads the configuration once for every page of the account area: the sign-in steps need it
 * before showing anything, the footer of every page its contact link. Reading it also sets the
 * anti-forgery cookie the pages' POSTs need.
 */
export function AccountConfigProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AccountConfigState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    const settle = (config: AccountConfig | undefined) => {
      if (!controller.signal.aborted) setState({ status: 'ready', config });
    };
    // A failure still shows the pages, without what the configuration would have added.
    fetchAccountConfig(controller.signal).then(settle, () => settle(undefined));
    return () => controller.abort();
  }, []);
  return <AccountConfigContext value={state}>{children}</AccountConfigContext>;
}

export function useAccountConfig(): AccountConfigState {
  return useContext(AccountConfigContext);
}

/**
 * Where "Problems to access? Contact Us!" leads, once the configuration names it: a web address
 * or a page of this site, nothing else (no `javascript:` link from a misconfiguration).
 */
export function useSupportUrl(): string | undefined {
  const state = useAccountConfig();
  const url = state.status === 'ready' ? state.config?.links?.support?.trim() : undefined;
  if (!url) return undefined;
  return /^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//')) ? url : undefined;
}
