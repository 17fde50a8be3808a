import Modal from 'antd/es/modal';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestPasswordResetMutation } from '../api/portal-api';
import { useProfile } from '../auth/auth-context';
import { userNameOf } from '../auth/profile';

/**
 * 'Change password': asks first, saying that a reset link will be e-mailed to the user's address;
 * on OK mails it, then says so ('Change password request Success') or asks the user to contact an
 * administrator. Cancel sends nothing. `dialogs` must be rendered.
 */
export function useChangePassword(): { changePassword: () => void; dialogs: ReactElement } {
  const { t } = useTranslation('portal');
  const profile = useProfile();
  const [requestReset] = useRequestPasswordResetMutation();
  const [modal, dialogs] = Modal.useModal();
  const userName = userNameOf(profile);

  const showFailure = () =>
    modal.error({ title: t('changePassword.failureTitle'), content: t('changePassword.failureText'), okText: t('changePassword.ok') });

  // Never rejects: the confirmation's OK stays busy while it runs, and closes when it ends.
  const sendResetLink = async (name: string) => {
    const result = await requestReset(name);
    if (result.data?.success) {
      modal.info({ title: t('changePassword.successTitle'), content: t('changePassword.successText'), okText: t('changePassword.ok') });
    } else {
      showFailure();
    }
  };

  const changePassword = () => {
    if (!userName) {
      showFailure();
      return;
    }
    modal.confirm({
      title: t('changePassword.confirmTitle'),
      content: t('changePassword.confirmText', { email: profile?.email ?? userName }),
      okText: t('changePassword.ok'),
      cancelText: t('changePassword.cancel'),
      onOk: () => sendResetLink(userName),
    });
  };

  return { changePassword, dialogs };
}
