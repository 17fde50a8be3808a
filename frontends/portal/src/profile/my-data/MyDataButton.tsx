import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import { ApiError, useApiDependencies } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/auth-context';
import { downloadMyData } from './download';

/**
 * "My data": downloads everything the product keeps about the user as "My data.xlsx" (in the
 * interface's language), busy while it comes, with the server's message when it fails.
 */
export function MyDataButton() {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const dependencies = useApiDependencies(useAuth());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function download() {
    setBusy(true);
    setError(undefined);
    try {
      await downloadMyData(dependencies, t('myData.fileName'), common);
    } catch (failure) {
      // A network failure has no message of ours to show.
      setError(failure instanceof ApiError ? failure.message : t('myData.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="my-data">
      <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void download()}>
        {t('myData.button')}
      </Button>
      {error && <Alert type="error" title={error} showIcon role="alert" className="my-data__error" />}
    </div>
  );
}

export default MyDataButton;
