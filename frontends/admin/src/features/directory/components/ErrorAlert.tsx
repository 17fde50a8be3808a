import Alert from 'antd/es/alert';
import { useDirectoryTranslation } from '../use-directory-translation';
import { errorMessage, type ErrorMessageOptions } from './errors';

export interface ErrorAlertProps extends ErrorMessageOptions {
  /** A failed call's error; nothing is shown while it is undefined or null. */
  error: unknown;
  className?: string;
}

/** The spec's error banner: "An error occurred" with the server's message. */
export function ErrorAlert({ error, className, ...options }: ErrorAlertProps) {
  const { t } = useDirectoryTranslation();
  if (error === undefined || error === null) return null;
  return <Alert type="error" showIcon className={className} title={t('common.errorTitle')} description={errorMessage(error, t, options)} />;
}
