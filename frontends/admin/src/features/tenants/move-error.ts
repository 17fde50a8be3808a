import { errorMessage } from '../directory/components/errors';
import type { DirectoryT } from '../directory/use-directory-translation';
import type { TenantsT } from './use-tenants-translation';

/** What a refused move says: the server's reason, else the spec's "Unexpected error". */
export function moveErrorMessage(error: unknown, t: TenantsT, td: DirectoryT): string {
  const message = errorMessage(error, td, { explains403: true });
  return message === td('common.unknownError') ? t('detail.unexpectedError') : message;
}
