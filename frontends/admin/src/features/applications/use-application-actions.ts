import type { ApplicationStatus } from '@gatehouse/contracts';
import { useState } from 'react';
import { errorMessage } from '../directory/components/errors';
import { useFeedback } from '../directory/components/feedback';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { useDeleteApplicationMutation, useRegenerateApplicationSecretMutation, useSetApplicationStatusMutation, type ApplicationSummary } from './applications-api';
import { useApplicationsTranslation } from './use-applications-translation';

type Target = Pick<ApplicationSummary, 'id' | 'displayName'>;

/**
 * What the list and the detail page do to an application: set its status (directly, as the spec
 * says), delete it (after confirmation) and replace its secret (after confirmation). Toasts and
 * confirmations render through `feedback.holder`, which the page must render.
 */
export function useApplicationActions() {
  const { t } = useApplicationsTranslation();
  const { t: td } = useDirectoryTranslation();
  const feedback = useFeedback();
  const [changeStatus] = useSetApplicationStatusMutation();
  const [deleteApplication] = useDeleteApplicationMutation();
  const [regenerate] = useRegenerateApplicationSecretMutation();
  const [changingStatus, setChangingStatus] = useState<string>();

  const setStatus = async (application: Target, status: ApplicationStatus): Promise<void> => {
    setChangingStatus(application.id);
    const result = await changeStatus({ id: application.id, status });
    setChangingStatus(undefined);
    if (result.error) feedback.error(errorMessage(result.error, td, { explains403: true }));
    else feedback.success(t('list.statusChanged', { name: application.displayName, status: t(`status.${status}`) }));
  };

  /** Resolves true once the application is deleted. */
  const remove = async (application: Target): Promise<boolean> => {
    const confirmed = await feedback.confirm({
      title: t('list.deleteConfirm', { name: application.displayName }),
      content: t('list.deleteWarning'),
      okText: t('detail.delete'),
      danger: true,
    });
    if (!confirmed) return false;
    const result = await deleteApplication(application.id);
    if (result.error) {
      // The server's reason (not the owner, part of the product), else the spec's fallback.
      const message = errorMessage(result.error, td, { explains403: true });
      feedback.error(message === td('common.unknownError') ? t('list.deleteFailed') : message);
      return false;
    }
    feedback.success(t('list.deleted'));
    return true;
  };

  /** Resolves with the new secret once replaced. */
  const regenerateSecret = async (application: Target): Promise<string | undefined> => {
    const confirmed = await feedback.confirm({
      title: t('secret.regenerateConfirm', { name: application.displayName }),
      content: t('secret.regenerateWarning'),
      okText: t('secret.regenerate'),
      danger: true,
    });
    if (!confirmed) return undefined;
    const result = await regenerate(application.id);
    if (result.error) {
      feedback.error(errorMessage(result.error, td, { explains403: true }));
      return undefined;
    }
    return result.data.sharedSecret;
  };

  return { feedback, changingStatus, setStatus, remove, regenerateSecret };
}
