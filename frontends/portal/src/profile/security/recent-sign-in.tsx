import { errorBodyOf } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { createContext, useContext, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../api/errors';
import { useReauthenticateMutation } from '../../api/portal-api';

/** What a call of RTK Query answers: its data, or its error. */
export type CallResult<T> = { data: T; error?: undefined } | { data?: undefined; error: object };

/** The server's refusal of a change that needs the password confirmed first. */
const REAUTHENTICATION_REQUIRED = 'account.reauthentication_required';

/** A 403 saying the sign-in is too old for this change. */
export function needsReauthentication(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('status' in error) || error.status !== 403) return false;
  return errorBodyOf('data' in error ? error.data : undefined).code === REAUTHENTICATION_REQUIRED;
}

/** Until when a change needs no password, by this browser's clock; false without a deadline. */
export function isRecent(recentUntil: string | null | undefined, now = Date.now()): boolean {
  const until = recentUntil ? Date.parse(recentUntil) : Number.NaN;
  return until > now;
}

export interface GuardOptions {
  /** The change needs a recent sign-in: the password is asked before trying when `recentUntil` has passed. */
  needsRecent?: boolean;
}

/**
 * Runs a change of factors or sessions. When the sign-in is known to be too old, or the server says
 * so (403 `account.reauthentication_required`), "Confirm your password" opens and the change is made
 * again once the password is confirmed. Undefined: the user closed that dialog.
 */
export type Guard = <T>(change: () => Promise<CallResult<T>>, options?: GuardOptions) => Promise<CallResult<T> | undefined>;

const RecentSignInContext = createContext<Guard | undefined>(undefined);

/** The guard of the "My security" page around it. */
export function useRecentSignIn(): Guard {
  const guard = useContext(RecentSignInContext);
  if (!guard) throw new Error('useRecentSignIn needs a RecentSignInProvider');
  return guard;
}

export interface RecentSignInProviderProps {
  /** The overview's deadline (ISO date-time), null when the password is needed now. */
  recentUntil: string | null;
  children: ReactNode;
}

/** Holds the "Confirm your password" dialog of the changes below it. */
export function RecentSignInProvider({ recentUntil, children }: RecentSignInProviderProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const [reauthenticate, { isLoading }] = useReauthenticateMutation();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string>();
  const settle = useRef<((confirmed: boolean) => void) | undefined>(undefined);

  const confirmPassword = () =>
    new Promise<boolean>((resolve) => {
      settle.current?.(false);
      settle.current = resolve;
      setFailure(undefined);
      form.resetFields();
      setOpen(true);
    });

  const close = (confirmed: boolean) => {
    setOpen(false);
    settle.current?.(confirmed);
    settle.current = undefined;
  };

  const submit = async ({ password }: { password: string }) => {
    setFailure(undefined);
    const result = await reauthenticate({ password });
    if (result.error) {
      setFailure(failureMessage(result.error, common));
      form.setFieldValue('password', '');
      return;
    }
    close(true);
  };

  const guard: Guard = async (change, { needsRecent = false } = {}) => {
    if (needsRecent && !isRecent(recentUntil) && !(await confirmPassword())) return undefined;
    const first = await change();
    if (!needsReauthentication(first.error)) return first;
    if (!(await confirmPassword())) return undefined;
    return change();
  };

  return (
    <RecentSignInContext.Provider value={guard}>
      {children}
      <Modal
        open={open}
        title={t('security.reauth.title')}
        okText={t('security.reauth.confirm')}
        cancelText={t('security.cancel')}
        confirmLoading={isLoading}
        onOk={() => form.submit()}
        onCancel={() => close(false)}
        afterOpenChange={(opened) => {
          if (opened) (form.getFieldInstance('password') as HTMLInputElement | null)?.focus();
        }}
        // Above the dialog of the change that asked for it (a code being typed, say).
        zIndex={1100}
        // Rendered while closed, so that its form is always connected.
        forceRender
      >
        <p>{t('security.reauth.text')}</p>
        <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
          <Form.Item name="password" label={t('security.reauth.password')} rules={[{ required: true, message: t('security.reauth.passwordRequired') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        </Form>
        {failure ? <Alert type="error" showIcon role="alert" title={t('security.reauth.failed')} description={failure} /> : null}
      </Modal>
    </RecentSignInContext.Provider>
  );
}
