import { CheckCircleFilled } from '@ant-design/icons';
import Button from 'antd/es/button';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  AccountRequestError,
  changePasswordWithLink,
  messagesOf,
  navigateTo,
  sameOriginPath,
  validateResetToken,
} from '../account-api';
import { useDialogs } from '../dialogs/use-dialogs';
import { useForm } from '../form/use-form';
import { AccountLayout } from '../layout/AccountLayout';
import { useDocumentTitle } from '../layout/use-document-title';
import { MessageList } from '../MessageList';
import { EMPTY_NEW_PASSWORD, NEW_PASSWORD_RULES, NewPasswordFields } from '../password/NewPasswordFields';
import { useAccountTranslation } from '../use-account-translation';
import { useTimedMessages } from '../use-timed-messages';

/** Where the user goes when the link cannot be used. */
export const BASE_PAGE = '/';
/** How long the success stays on screen before the redirect (the spec's notification delay). */
export const SUCCESS_REDIRECT_MS = 4000;

type PageState = { kind: 'checking' } | { kind: 'blocked' } | { kind: 'ready' } | { kind: 'done'; redirectTo: string };

export interface ChangePasswordPageProps {
  supportUrl?: string;
}

/**
 * `/account/changePassword?identityName=…&token=…&returnUrl=…`, opened from the reset mail: the link
 * is checked first, then the new password is set.
 */
export default function ChangePasswordPage({ supportUrl }: ChangePasswordPageProps) {
  const { t } = useAccountTranslation();
  useDocumentTitle(t('page.changePasswordTitle'));
  const [searchParams] = useSearchParams();
  const identityName = searchParams.get('identityName')?.trim() ?? '';
  // Some mail clients turn the token's '+' into spaces (spec).
  const token = (searchParams.get('token') ?? '').replaceAll(' ', '+');
  // Only an address of this site is passed on or followed.
  const returnUrl = sameOriginPath(searchParams.get('returnUrl') ?? searchParams.get('ReturnUrl')) ?? null;

  const dialogs = useDialogs();
  const form = useForm(EMPTY_NEW_PASSWORD, NEW_PASSWORD_RULES);
  const [state, setState] = useState<PageState>({ kind: 'checking' });
  const [errors, showErrors] = useTimedMessages();
  const [busy, setBusy] = useState(false);

  const refuseLink = (messages: string[]) => {
    setState({ kind: 'blocked' });
    dialogs.open({
      type: 'info',
      title: t('changePassword.invalidTitle'),
      content: messages.length ? messages.join(' ') : t('changePassword.invalidLink'),
      okText: t('changePassword.ok'),
      onOk: () => navigateTo(BASE_PAGE),
    });
  };

  useEffect(() => {
    if (!identityName || !token) {
      refuseLink([]);
      return undefined;
    }
    const controller = new AbortController();
    validateResetToken(identityName, token, controller.signal).then(
      (check) => {
        if (controller.signal.aborted) return;
        if (check.valid) setState({ kind: 'ready' });
        else refuseLink(check.messages);
      },
      () => {
        if (controller.signal.aborted) return;
        setState({ kind: 'blocked' });
        dialogs.open({
          type: 'error',
          title: t('changePassword.errorTitle'),
          content: t('changePassword.errorText'),
          okText: t('changePassword.ok'),
          onOk: () => navigateTo(BASE_PAGE),
        });
      },
    );
    return () => controller.abort();
    // The link is checked once per link, not again when the language (and so `t`) changes.
  }, [identityName, token]);

  useEffect(() => {
    if (state.kind !== 'done') return undefined;
    const timer = setTimeout(() => navigateTo(state.redirectTo), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    setBusy(true);
    showErrors([]);
    const { newPassword, confirmPassword } = form.values;
    try {
      const { ok, body } = await changePasswordWithLink({ identityName, token, newPassword, confirmPassword, returnUrl });
      if (ok && body.success) {
        setState({ kind: 'done', redirectTo: sameOriginPath(body.redirectTo) ?? returnUrl ?? BASE_PAGE });
      } else if (body.code === 'account.invalid_token') {
        refuseLink(messagesOf(body));
      } else {
        const messages = messagesOf(body);
        showErrors(messages.length ? messages : [t('login.unknownError')]);
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
      showErrors([t('login.unknownError')]);
    }
    setBusy(false);
  };

  return (
    <AccountLayout supportUrl={supportUrl}>
      {dialogs.holder}
      {state.kind === 'done' ? (
        <section className="account-done" aria-labelledby="account-done-title">
          <CheckCircleFilled className="account-done__icon" aria-hidden />
          <h2 id="account-done-title" className="account-step__title" role="status">
            {t('changePassword.success')}
          </h2>
          <p className="account-step__text">{t('changePassword.redirecting')}</p>
          <Button type="primary" autoFocus onClick={() => navigateTo(state.redirectTo)}>
            {t('changePassword.continue')}
          </Button>
        </section>
      ) : (
        <section aria-labelledby="account-change-title" aria-busy={state.kind === 'checking'}>
          <h2 id="account-change-title" className="account-step__title">
            {t('changePassword.heading')}
          </h2>
          {state.kind === 'ready' ? (
            <form noValidate onSubmit={(event) => void submit(event)}>
              <p className="account-step__text">{t('changePassword.intro', { userName: identityName })}</p>
              <NewPasswordFields form={form} userName={identityName} autoFocus />
              <MessageList messages={errors} />
              <Button type="primary" htmlType="submit" block loading={busy}>
                {t('changePassword.submit')}
              </Button>
            </form>
          ) : state.kind === 'checking' ? (
            <p className="account-step__text" role="status">
              {t('changePassword.checking')}
            </p>
          ) : null}
        </section>
      )}
    </AccountLayout>
  );
}
