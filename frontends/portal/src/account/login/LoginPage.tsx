import type { GroupSignInRule } from '@gatehouse/contracts';
import { forgetSignedOut, hasSignedOutNotice } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { externalLoginUrl, navigateTo, sameOriginPath, type AccountConfig, type InteractionDetails } from '../account-api';
import { AccountLayout } from '../layout/AccountLayout';
import { Loading } from '../layout/Loading';
import { useDocumentTitle } from '../layout/use-document-title';
import { useAccountTranslation } from '../use-account-translation';
import { ConsentStep } from './ConsentStep';
import { CredentialsForm, type CredentialsValues } from './CredentialsForm';
import { ExpiredPasswordStep } from './ExpiredPasswordStep';
import type { LoginOutcome, TwoFactorChoice, TwoFactorMethod } from './login-outcome';
import { MethodChoice } from './MethodChoice';
import { PasskeyEnrolmentStep } from './PasskeyEnrolmentStep';
import { TwoFactorStep } from './TwoFactorStep';
import { useSignInSetup } from './use-sign-in-setup';

type Step =
  | { kind: 'choice'; returning: boolean }
  | { kind: 'credentials' }
  | { kind: 'two-factor'; token: string; method: TwoFactorMethod; methods: TwoFactorChoice[]; codeExpiresAt: string | null }
  | { kind: 'expired-password'; token: string; message: string | undefined }
  | { kind: 'passkey-enrolment'; token: string }
  | { kind: 'consent'; interaction: InteractionDetails };

/** `/account/login` and `/account/logout`: every step of a sign-in inside one card. */
export function LoginPage() {
  const { t } = useAccountTranslation();
  useDocumentTitle(t('page.signInTitle'));
  const setup = useSignInSetup();
  const [searchParams] = useSearchParams();
  const location = useLocation();

  const interactionParam = searchParams.get('interaction') ?? undefined;
  const returnUrl = searchParams.get('ReturnUrl') ?? searchParams.get('returnUrl');
  const safeReturnUrl = sameOriginPath(returnUrl);
  const fallbackUrl = safeReturnUrl ?? '/';
  const config = setup.status === 'ready' ? setup.config : undefined;
  const groupSignIn = useMemo(() => groupSignInOf(config), [config]);
  // A sign-out of this tab ends here: said once ("Login has successfully ended").
  const [signedOut] = useState(hasSignedOutNotice);
  useEffect(() => {
    if (signedOut) forgetSignedOut();
  }, [signedOut]);

  return (
    <AccountLayout>
      {signedOut && <Alert className="account-step__alert" type="success" showIcon title={t('login.signedOut')} />}
      {setup.status === 'loading' ? (
        <Loading />
      ) : (
        <SignInSteps
          microsoftUrl={
            setup.config?.microsoftSignIn === false
              ? undefined
              : // Back here after Microsoft, so the same sign-in (interaction) goes on.
                externalLoginUrl(safeReturnUrl ?? location.pathname + location.search)
          }
          groupSignIn={groupSignIn}
          interaction={setup.interaction}
          interactionParam={interactionParam}
          returnUrl={safeReturnUrl ?? null}
          fallbackUrl={fallbackUrl}
        />
      )}
    </AccountLayout>
  );
}

/** Who must use the Microsoft sign-in, when the configuration says. */
function groupSignInOf(config: AccountConfig | undefined): GroupSignInRule | undefined {
  if (!config?.groupDomains?.length && !config?.groupDomainFragment) return undefined;
  return { groupDomains: config.groupDomains ?? [], groupDomainFragment: config.groupDomainFragment };
}

interface SignInStepsProps {
  microsoftUrl: string | undefined;
  groupSignIn: GroupSignInRule | undefined;
  interaction: InteractionDetails | undefined;
  interactionParam: string | undefined;
  returnUrl: string | null;
  fallbackUrl: string;
}

function SignInSteps({ microsoftUrl, groupSignIn, interaction, interactionParam, returnUrl, fallbackUrl }: SignInStepsProps) {
  const loginHint = interaction?.loginHint ?? '';
  const [step, setStep] = useState<Step>(() => {
    if (interaction?.prompt === 'consent') return { kind: 'consent', interaction };
    // With one way in, or a user already named by the application, the choice is skipped.
    if (!microsoftUrl || loginHint) return { kind: 'credentials' };
    return { kind: 'choice', returning: false };
  });
  const [credentials, setCredentials] = useState<Omit<CredentialsValues, 'password'>>({
    userName: loginHint,
    rememberLogin: false,
  });

  const follow = (outcome: LoginOutcome) => {
    switch (outcome.kind) {
      case 'redirect':
        navigateTo(outcome.url);
        return;
      case 'two-factor':
        setStep({ kind: 'two-factor', token: outcome.token, method: outcome.method, methods: outcome.methods, codeExpiresAt: outcome.codeExpiresAt });
        return;
      case 'expired-password':
        setStep({ kind: 'expired-password', token: outcome.token, message: outcome.message });
        return;
      case 'passkey-enrolment':
        setStep({ kind: 'passkey-enrolment', token: outcome.token });
        return;
      case 'refused':
        return; // each step shows its own refusals
    }
  };
  const backToCredentials = () => setStep({ kind: 'credentials' });

  switch (step.kind) {
    case 'consent':
      return <ConsentStep interaction={step.interaction} onRedirect={navigateTo} />;
    case 'choice':
      return (
        <MethodChoice
          microsoftUrl={microsoftUrl ?? ''}
          autoFocus={step.returning}
          onLocal={() => setStep({ kind: 'credentials' })}
        />
      );
    case 'credentials':
      return (
        <CredentialsForm
          initialValues={credentials}
          interaction={interaction?.uid ?? interactionParam}
          returnUrl={returnUrl}
          fallbackUrl={fallbackUrl}
          microsoftUrl={microsoftUrl}
          groupSignIn={groupSignIn}
          onAnotherMethod={microsoftUrl ? () => setStep({ kind: 'choice', returning: true }) : undefined}
          onOutcome={(outcome, values) => {
            setCredentials(values);
            follow(outcome);
          }}
        />
      );
    case 'two-factor':
      return (
        <TwoFactorStep
          token={step.token}
          method={step.method}
          methods={step.methods}
          codeExpiresAt={step.codeExpiresAt}
          userName={credentials.userName}
          rememberLogin={credentials.rememberLogin}
          fallbackUrl={fallbackUrl}
          onOutcome={follow}
          onCancel={backToCredentials}
        />
      );
    case 'expired-password':
      return (
        <ExpiredPasswordStep
          token={step.token}
          userName={credentials.userName}
          message={step.message}
          fallbackUrl={fallbackUrl}
          onOutcome={follow}
          onCancel={backToCredentials}
        />
      );
    case 'passkey-enrolment':
      return <PasskeyEnrolmentStep token={step.token} fallbackUrl={fallbackUrl} onOutcome={follow} onCancel={backToCredentials} />;
  }
}
