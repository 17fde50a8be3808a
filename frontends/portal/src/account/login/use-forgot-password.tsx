import { AccountRequestError, messagesOf, requestPasswordReset } from '../account-api';
import type { DialogSpec } from '../dialogs/use-dialogs';
import { useAccountTranslation } from '../use-account-translation';

/**
 * "Forgot your password?": the user name must be filled in, the user confirms, then the reset mail is
 * asked for and the outcome shown in a dialog.
 */
export function useForgotPassword(openDialog: (spec: DialogSpec) => void, readUserName: () => string): () => void {
  const { t, i18n } = useAccountTranslation();

  const send = async (userName: string) => {
    let messages: string[] = [];
    try {
      const { ok, status, body } = await requestPasswordReset(userName, i18n.language);
      if (ok && body.success) {
        openDialog({ type: 'success', title: t('forgot.successTitle'), content: t('forgot.successText'), okText: t('forgot.ok') });
        return;
      }
      // The server's reasons (too many requests, a refused field) help; a crash's reference does not.
      if (status < 500) messages = messagesOf(body);
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
    }
    openDialog({
      type: 'error',
      title: t('forgot.failureTitle'),
      content: messages.length ? (
        <ul className="account-scopes">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : (
        // The spec's "error text followed by 'Please verify your email.'": the same for every user
        // name, since the server answers a reset request before it looks the account up.
        <>
          <p>{t('forgot.failureText')}</p>
          <p>{t('forgot.verifyEmail')}</p>
        </>
      ),
      okText: t('forgot.ok'),
    });
  };

  return () => {
    const userName = readUserName().trim();
    if (!userName) {
      openDialog({ type: 'warning', title: t('forgot.missingTitle'), content: t('forgot.missingText'), okText: t('forgot.ok') });
      return;
    }
    openDialog({
      type: 'confirm',
      title: t('forgot.confirmTitle'),
      content: t('forgot.confirmText', { userName }),
      okText: t('forgot.confirmOk'),
      cancelText: t('forgot.cancel'),
      // The dialog stays open, its OK busy, until the answer is in.
      onOk: () => send(userName),
    });
  };
}
