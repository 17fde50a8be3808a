import Modal from 'antd/es/modal';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestPasswordResetMutation } from '../api/portal-api';
import { useProfile } from '../auth/auth-context';
import { userNameOf } from '../auth/profile';

/**
 * 'Change password': mails the signed-in user a reset link, then says so ('Change password request
 * Success') or asks them to contact an administrator. `dialogs` must be rendered.
 */
export function useChangePassword(): { changePassword: () => Promise<void>; dialogs: ReactElement } {
  const { t } = useTranslation('portal');
  const profile = useProfile();
  const [requestReset] = useRequestPasswordResetMutation();
  const [modal, dialogs] = Modal.useModal();

  const changePassword = async () => {
    const userName = userNameOf(profile);
    const result = userName ? await requestReset(userName) : undefined;
    if (result?.data?.success) {
      modal.info({ title: t('changePassword.successTitle'), content: t('changePassword.successText'), okText: t('changePassword.ok') });
    } else {
      modal.error({ title: t('changePassword.failureTitle'), content: t('changePassword.failureText'), okText: t('changePassword.ok') });
    }
  };

  return { changePassword, dialogs };
}
