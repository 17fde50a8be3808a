import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuKey } from './menu';

/**
 * Stands in for a specified screen not built yet (My Clients, Service Manager): its title, why it
 * is empty, and the way home, so a menu entry or a bookmark never lands on a blank page.
 */
export default function NotAvailablePage({ screen }: { screen: MenuKey }) {
  const { t } = useTranslation('portal');
  const navigate = useNavigate();
  const titleId = useId();
  const name = t(`menu.${screen}`);
  return (
    <section aria-labelledby={titleId}>
      <h1 id={titleId} className="shell-page-title">
        {name}
      </h1>
      <Result
        status="info"
        title={t('notAvailable.title')}
        subTitle={t('notAvailable.text', { screen: name })}
        extra={
          <Button type="primary" onClick={() => void navigate('/')}>
            {t('notAvailable.backHome')}
          </Button>
        }
      />
    </section>
  );
}
