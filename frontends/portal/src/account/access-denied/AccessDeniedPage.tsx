import { StopOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { LOGOUT_PATH } from '../account-api';
import { AccountLayout } from '../layout/AccountLayout';
import { useDocumentTitle } from '../layout/use-document-title';
import { useAccountTranslation } from '../use-account-translation';
import { productPath } from '@gatehouse/frontend-shared';

/** `/account/accessDenied`: signed in, but not allowed where the user tried to go. */
export default function AccessDeniedPage() {
  const { t } = useAccountTranslation();
  useDocumentTitle(t('page.accessDeniedTitle'));
  return (
    <AccountLayout>
      <section aria-labelledby="account-denied-title" className="account-denied">
        <StopOutlined className="account-denied__icon" aria-hidden />
        <h2 id="account-denied-title" className="account-step__title">
          {t('accessDenied.heading')}
        </h2>
        <p className="account-step__text">{t('accessDenied.text')}</p>
        <div className="account-step__actions">
          {/* Plain links: home and the provider's sign-out are full page loads. */}
          <Button type="primary" href={productPath('/')}>
            {t('accessDenied.home')}
          </Button>
          <Button href={LOGOUT_PATH}>{t('accessDenied.closeSession')}</Button>
        </div>
      </section>
    </AccountLayout>
  );
}
