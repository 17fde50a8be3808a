import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from './PageHeader';

/**
 * Stands in for a specified screen not built yet: its title, why it is empty, and the way back,
 * so a link or bookmark to it never lands on a blank page.
 */
export function NotAvailablePage({ screen }: { screen: string }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={screen} breadcrumbs={[{ title: screen }]} />
      <Result
        status="info"
        title={t('notAvailable.title')}
        subTitle={t('notAvailable.text', { screen })}
        extra={
          <Button type="primary" onClick={() => void navigate('/')}>
            {t('notAvailable.backToDashboard')}
          </Button>
        }
      />
    </>
  );
}
