import Alert from 'antd/es/alert';
import { useTranslation } from 'react-i18next';
import { errorMessageOf, type QueryError } from '../api/errors';

/** The spec's error banner: "An error occurred" and the server's message. Nothing without an error. */
export function ApiErrorAlert({ error, className }: { error: QueryError; className?: string }) {
  const { t } = useTranslation(['admin', 'translation']);
  if (!error) return null;
  return <Alert type="error" showIcon title={t('admin:common.errorTitle')} description={errorMessageOf(error, t)} className={className} />;
}
