import { CheckCircleFilled } from '@ant-design/icons';
import Button from 'antd/es/button';
import { useEffect, useEffectEvent, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  AccountRequestError,
  changePasswordWithLink,
  fieldErrorsOf,
  messagesOf,
  navigateTo,
  sameOriginPath,
  validateResetToken,
  type TokenCheck,
} from '../account-api';
import { useDialogs } from '../dialogs/use-dialogs';
import { useForm } from '../form/use-form';
import { AccountLayout } from '../layout/AccountLayout';
import { AccountStep } from '../layout/AccountStep';
import { useDocumentTitle } from '../layout/use-document-title';
import { MessageList } from '../MessageList';
import { EMPTY_NEW_PASSWORD, NEW_PASSWORD_RULES, NewPasswordFields } from '../password/NewPasswordFields';
import { useNewPasswordRefusal } from '../password/password-refusal';
import { useAccountTranslation } from '../use-account-translation';

/** Where the user goes when the link cannot be used. */
export const BASE_PAGE = '/';
/** How long the success stays on screen before the redirect (the spec's notification delay). */
export const SUCCESS_REDIRECT_MS = 4000;

type PageState =
  | { kind: 'checking' }
  | { kind: 'blocked' }
  | { kind: 'ready' }
  /** `message`: the server's words for the change, if it sent any. */
  | { kind: 'done'; redirectTo: string; message: string | undefined };

/**
 * `/account/changePassword?identityName=…&token=…&returnUrl=…`, opened from the reset mail: the link
 * is checked first, then the new password is set.
 */
export default function ChangePasswordPage() {
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
  const hasLink = Boolean(identityName && token);
  // A link without its name or token is refused at once, without asking the server.
  const [state, setState] = useState<PageState>(() => (hasLink ? { kind: 'checking' } : { kind: 'blocked' }));
  const [errors, showErrors] = useNewPasswordRefusal(form.values);
  const [busy, setBusy] = useState(false);

  const explainRefusal = (messages: string[]) =>
    dialogs.open({
      type: 'info',
      title: t('changePassword.invalidTitle'),
      content: messages.length ? messages.join(' ') : t('changePassword.invalidLink'),
      okText: t('changePassword.ok'),
      onOk: () => navigateTo(BASE_PAGE),
    });
  const refuseLink = (messages: string[]) => {
    setState({ kind: 'blocked' });
    explainRefusal(messages);
  };

  // Effect events: the link is checked once per link, not again when the language (and so `t`) changes.
  const onLinkChecked = useEffectEvent((check: TokenCheck) => {
    if (check.valid) setState({ kind: 'ready' });
    else refuseLink(check.messages);
  });
  const onMissingLink = useEffectEvent(() => explainRefusal([]));
  const onLinkCheckFailed = useEffectEvent(() => {
    setState({ kind: 'blocked' });
    dialogs.open({
      type: 'error',
      title: t('changePassword.errorTitle'),
      content: t('changePassword.errorText'),
      okText: t('changePassword.ok'),
      onOk: () => navigateTo(BASE_PAGE),
    });
  });

  useEffect(() => {
    if (!hasLink) {
      onMissingLink();
      return undefined;
    }
    const controller = new AbortController();
    validateResetToken(identityName, token, controller.signal).then(
      (check) => {
        if (!controller.signal.aborted) onLinkChecked(check);
      },
      () => {
        if (!controller.signal.aborted) onLinkCheckFailed();
      },
    );
    return () => controller.abort();
  }, [hasLink, identityName, token]);

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
        setState({ kind: 'done', redirectTo: sameOriginPath(body.redirectTo) ?? returnUrl ?? BASE_PAGE, message: body.message?.trim() || undefined });
      } else if (body.code === 'account.invalid_token') {
        refuseLink(messagesOf(body));
      } else {
        const messages = messagesOf(body);
        const judged = { newPassword, confirmPassword };
        showErrors(messages.length ? messages : [t('login.unknownError')], { fieldErrors: fieldErrorsOf(body), judged });
      }
    } catch (error) {
      if (!(error instanceof AccountRequestError)) throw error;
      showErrors([t('login.unknownError')]);
    }
    setBusy(false);
  };

  return (
    <AccountLayout>
      {dialogs.holder}
      {state.kind === 'done' ? (
        <AccountStep
          id="done"
          className="account-done"
          icon={<CheckCircleFilled className="account-done__icon" aria-hidden />}
          title={state.message ?? t('changePassword.success')}
          titleRole="status"
          text={t('changePassword.redirecting')}
        >
          <Button type="primary" autoFocus onClick={() => navigateTo(state.redirectTo)}>
            {t('changePassword.continue')}
          </Button>
        </AccountStep>
      ) : (
        <AccountStep id="change" title={t('changePassword.heading')} busy={state.kind === 'checking'}>
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
        </AccountStep>
      )}
    </AccountLayout>
  );
}
