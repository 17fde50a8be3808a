import { useEffect, useState } from 'react';
import { fetchAccountConfig, fetchInteraction, type AccountConfig, type InteractionDetails } from '../account-api';

export type SignInSetup =
  | { status: 'loading' }
  | { status: 'ready'; config: AccountConfig | undefined; interaction: InteractionDetails | undefined };

/**
 * What the sign-in page needs before showing a step: whether Microsoft sign-in is offered, and
 * whether the provider asks for a sign-in or a consent. Both GETs also set the anti-forgery cookie
 * the POSTs need. A failure of either still shows the form: the sign-in itself will say more.
 */
export function useSignInSetup(): SignInSetup {
  const [setup, setSetup] = useState<SignInSetup>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    const settle = <T,>(promise: Promise<T>) => promise.catch(() => undefined);
    void Promise.all([settle(fetchAccountConfig(controller.signal)), settle(fetchInteraction(controller.signal))]).then(
      ([config, interaction]) => {
        if (!controller.signal.aborted) setSetup({ status: 'ready', config, interaction });
      },
    );
    return () => controller.abort();
  }, []);
  return setup;
}
