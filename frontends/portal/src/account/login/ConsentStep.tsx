import Button from 'antd/es/button';
import { useState } from 'react';
import { AccountRequestError, answerConsent, sameOriginPath, type InteractionDetails } from '../account-api';
import { AccountStep, AccountStepActions } from '../layout/AccountStep';
import { MessageList } from '../MessageList';
import { useAccountTranslation, type AccountKey } from '../use-account-translation';

export interface ConsentStepProps {
  interaction: InteractionDetails;
  onRedirect: (url: string) => void;
}

const KNOWN_SCOPES = new Set(['openid', 'profile', 'email', 'roles', 'offline_access', 'company']);
const KNOWN_RESOURCE_SCOPES = new Set(['admin']);

/**
 * A third-party application asks for access: the user sees what (profile scopes and claims, and
 * access to other services), and allows or denies it. "Allow" names the interaction shown, so it
 * grants exactly what this page listed.
 */
export function ConsentStep({ interaction, onRedirect }: ConsentStepProps) {
  const { t } = useAccountTranslation();
  const [busy, setBusy] = useState<'allow' | 'deny' | undefined>();
  const [messages, setMessages] = useState<string[]>([]);
  const application = interaction.client?.displayName || interaction.client?.clientId || t('consent.unknownApplication');
  // What still needs the user's agreement; an application re-asking for nothing new lists all.
  const scopes = interaction.missingScopes.length ? interaction.missingScopes : interaction.scopes;

  const answer = async (approve: boolean) => {
    setBusy(approve ? 'allow' : 'deny');
    setMessages([]);
    try {
      const { body } = await answerConsent(approve, interaction.uid);
      if (body.redirectTo) {
        onRedirect(sameOriginPath(body.redirectTo) ?? '/');
        return;
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
    }
    setMessages([t('login.unknownError')]);
    setBusy(undefined);
  };

  return (
    <AccountStep id="consent" title={t('consent.heading', { application })} text={t('consent.intro', { application })}>
      <ul className="account-scopes">
        {scopes.map((scope) => (
          <li key={scope}>{KNOWN_SCOPES.has(scope) ? t(`consent.scopes.${scope}` as AccountKey) : scope}</li>
        ))}
        {(interaction.missingClaims ?? []).map((claim) => (
          <li key={`claim:${claim}`}>{t('consent.claim', { claim })}</li>
        ))}
        {(interaction.resourceScopes ?? []).flatMap(({ resource, scopes: resourceScopes }) =>
          resourceScopes.map((scope) => (
            <li key={`${resource} ${scope}`}>
              {KNOWN_RESOURCE_SCOPES.has(scope)
                ? t(`consent.resourceScopes.${scope}` as AccountKey, { resource })
                : t('consent.resourceScope', { scope, resource })}
            </li>
          )),
        )}
      </ul>
      <MessageList messages={messages} />
      <AccountStepActions>
        <Button onClick={() => void answer(false)} loading={busy === 'deny'} disabled={busy === 'allow'}>
          {t('consent.deny')}
        </Button>
        <Button type="primary" onClick={() => void answer(true)} loading={busy === 'allow'} disabled={busy === 'deny'}>
          {t('consent.allow')}
        </Button>
      </AccountStepActions>
    </AccountStep>
  );
}
