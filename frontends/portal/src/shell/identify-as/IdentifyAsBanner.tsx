import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../api/errors';
import { useAuth } from '../../auth/auth-context';
import { fullName, type PortalProfile } from '../../auth/profile';
import { leavePortal } from '../navigation';
import { useEndIdentifyAsMutation } from './identify-as-api';

/**
 * Across the top of every page while a God user is signed in as the user (the ID token's `act`):
 * who is signed in on whose behalf, and "End". Ending asks the provider to end it (the session and
 * its tokens go), then leaves through the sign-out, which drops this browser's copy of the tokens
 * and comes back to the portal's home, that is the sign-in page; should the sign-out fail, the
 * browser goes where the provider said.
 */
export function IdentifyAsBanner({ profile }: { profile: PortalProfile }) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const auth = useAuth();
  const [endIdentifyAs, { isLoading }] = useEndIdentifyAsMutation();
  const [leaving, setLeaving] = useState(false);
  const [problem, setProblem] = useState<string>();
  if (!profile.act) return null;

  const end = async () => {
    setProblem(undefined);
    const result = await endIdentifyAs();
    if (result.error) {
      setProblem(failureMessage(result.error, common));
      return;
    }
    setLeaving(true);
    await auth.signOut().catch(() => leavePortal(result.data.redirectTo ?? '/'));
  };

  return (
    <Alert
      banner
      type="warning"
      showIcon
      title={t('identifyAs.banner', { user: fullName(profile), actor: profile.act.name ?? profile.act.sub })}
      description={problem}
      action={
        <Button size="small" danger loading={isLoading || leaving} onClick={() => void end()}>
          {t('identifyAs.end')}
        </Button>
      }
    />
  );
}
