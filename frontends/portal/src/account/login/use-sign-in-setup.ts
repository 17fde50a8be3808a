import { useEffect, useState } from 'react';
import { fetchInteraction, type AccountConfig, type InteractionDetails } from '../account-api';
import { useAccountConfig } from '../account-config';

export type SignInSetup =
  | { status: 'loading' }
  | { status: 'ready'; config: AccountConfig | undefined; interaction: InteractionDetails | undefined };

type InteractionState = { status: 'loading' } | { status: 'ready'; interaction: InteractionDetails | undefined };

/**
 * What the sign-in page needs before showing a step: the configuration (whether Microsoft sign-in
 * is offered, who must use it), read once for the account area, and whether the provider asks for
 * a sign-in or a consent. Both GETs also set the anti-forgery cookie the POSTs need. A failure of
 * either still shows the form: the sign-in itself will say more.
 */
export function useSignInSetup(): SignInSetup {
  const config = useAccountConfig();
  const [interaction, setInteraction] = useState<InteractionState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    const settle = (details: InteractionDetails | undefined) => {
      if (!controller.signal.aborted) setInteraction({ status: 'ready', interaction: details });
    };
    fetchInteraction(controller.signal).then(settle, () => settle(undefined));
    return () => controller.abort();
  }, []);
  if (config.status === 'loading' || interaction.status === 'loading') return { status: 'loading' };
  return { status: 'ready', config: config.config, interaction: interaction.interaction };
}
