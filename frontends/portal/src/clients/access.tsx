import { isApproverCategory } from '@gatehouse/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useNavigate } from 'react-router';
import { useMyProfileQuery } from '../api/portal-api';
import { useProfile } from '../auth/auth-context';
import { rolesOf } from '../shell/ShellLayout';
import { PageLoader } from '../shell/PageLoader';

/** The signed-in user's roles (the token's and the profile call's); undefined until the profile has come. */
export function usePortalRoles(): string[] | undefined {
  const profile = useProfile();
  const me = useMyProfileQuery(undefined, { skip: !profile });
  // A failed profile call leaves the token's roles; its error stays while it is asked again.
  if (!me.data && !me.error) return undefined;
  return rolesOf(profile, me.data);
}

/**
 * Whether the user may approve their own request at once (the Approve / Not Approve switch):
 * administrators, and users whose internal category is an approver's (spec 5).
 */
export function useCanAutoApprove(): boolean {
  const profile = useProfile();
  const roles = usePortalRoles() ?? [];
  return roles.includes('Administrator') || roles.includes('God') || isApproverCategory(profile?.internal_category);
}

/**
 * Shows a screen only to the roles it is for; anybody else who follows a link or bookmark there is
 * told whom the page is for, with the way home. The API checks every call again.
 */
export function RequireRoles({ roles, screen, children }: { roles: readonly string[]; screen: 'clients' | 'serviceManager'; children: ReactNode }) {
  const { t } = useTranslation('portal');
  const navigate = useNavigate();
  const held = usePortalRoles();
  if (!held) return <PageLoader label={t('shell.busy')} />;
  if (!roles.some((role) => held.includes(role))) {
    return (
      <section aria-labelledby="not-for-you-title">
        <h1 id="not-for-you-title" className="shell-page-title">
          {t(`menu.${screen}`)}
        </h1>
        <Result
          status="403"
          title={t('shell.notForYou.title')}
          subTitle={t(`shell.notForYou.${screen}`)}
          extra={
            <Button type="primary" onClick={() => void navigate('/')}>
              {t('auth.backHome')}
            </Button>
          }
        />
      </section>
    );
  }
  return <>{children}</>;
}
