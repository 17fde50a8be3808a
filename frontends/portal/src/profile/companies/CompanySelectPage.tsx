import { sameOriginPath } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useMyProfileQuery } from '../../api/portal-api';
import { leavePortal } from '../../shell/navigation';
import { ProfilePending } from '../ProfilePage';
import { CompanySelectDialog } from './CompanySelectDialog';
import './companies.css';

/**
 * `/home/companies/select`: "Change company" at an address the other applications link to. The
 * company picked (or the choice cancelled), the browser goes back to `returnUrl` when it stays on
 * this site (another application: a full page load), else to the portal's home. Signed out, the
 * sign-in comes back here, query included.
 */
export default function CompanySelectPage() {
  const { t } = useTranslation('portal');
  const titleId = useId();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const profile = useMyProfileQuery();
  const returnUrl = sameOriginPath(params.get('returnUrl') ?? params.get('ReturnUrl'));
  const done = () => (returnUrl ? leavePortal(returnUrl) : void navigate('/', { replace: true }));
  const me = profile.data;

  let content = <ProfilePending profile={profile} />;
  if (me && me.companyCount === 0) {
    content = <Alert type="info" showIcon title={t('companies.none')} action={<Button onClick={done}>{t('companies.back')}</Button>} />;
  } else if (me) {
    content = <CompanySelectDialog open current={me.currentCompany} onClose={done} />;
  }

  return (
    <section className="companies-page" aria-labelledby={titleId}>
      <h1 id={titleId} className="companies-page__title">
        {t('companies.title')}
      </h1>
      {content}
    </section>
  );
}
