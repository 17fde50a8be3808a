import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import QRCode from 'antd/es/qr-code';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmTotpMutation, useDisableTotpMutation, useEnrolTotpMutation, type SecurityOverview, type TotpEnrolment } from '../../api/portal-api';
import { useRecentSignIn } from './recent-sign-in';
import { SecurityCard, useFailure, type Failure } from './security-parts';

/** The manual key as authenticator apps print it: groups of four. */
export function groupedKey(secret: string): string {
  return secret.replace(/\s/g, '').match(/.{1,4}/g)?.join(' ') ?? '';
}

const onlyDigits = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/** The six-digit code field of both dialogs. */
function CodeField({ label }: { label: string }) {
  const { t } = useTranslation('portal');
  return (
    <Form.Item
      name="code"
      label={label}
      normalize={onlyDigits}
      rules={[
        { required: true, message: t('security.totp.codeRequired') },
        { pattern: /^\d{6}$/, message: t('security.totp.codeFormat') },
      ]}
    >
      <Input autoComplete="one-time-code" inputMode="numeric" spellCheck={false} />
    </Form.Item>
  );
}

interface CodeFormProps {
  label: string;
  submitText: string;
  danger?: boolean;
  failure: Failure | undefined;
  busy: boolean;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}

/** A code to type and the dialog's buttons. */
function CodeForm({ label, submitText, danger, failure, busy, onSubmit, onCancel }: CodeFormProps) {
  const { t } = useTranslation('portal');
  return (
    <Form layout="vertical" onFinish={({ code }: { code: string }) => onSubmit(code)}>
      <CodeField label={label} />
      {failure ? <Alert className="security-card__alert" type="error" showIcon role="alert" title={failure.title} description={failure.detail} /> : null}
      <div className="security-dialog__actions">
        <Button onClick={onCancel}>{t('security.cancel')}</Button>
        <Button type="primary" danger={danger} htmlType="submit" loading={busy}>
          {submitText}
        </Button>
      </div>
    </Form>
  );
}

/** The new authenticator: its QR code, its key to type by hand, and the first code to confirm it. */
function EnrolmentDialog({ enrolment, onDone, onCancel }: { enrolment: TotpEnrolment | undefined; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation('portal');
  const keyId = useId();
  const [confirm, { isLoading }] = useConfirmTotpMutation();
  const { failure, fail, clear } = useFailure();

  const submit = async (code: string) => {
    clear();
    const result = await confirm({ code });
    if (result.error) fail(t('security.totp.confirmFailed'), result.error);
    else onDone();
  };

  return (
    <Modal open={enrolment !== undefined} title={t('security.totp.enrolTitle')} footer={null} onCancel={onCancel} afterClose={clear} destroyOnHidden>
      {enrolment ? (
        <>
          <p>{t('security.totp.scan')}</p>
          <div className="security-qr" role="img" aria-label={t('security.totp.qrLabel')}>
            <QRCode value={enrolment.otpauthUri} type="svg" size={176} bordered={false} />
          </div>
          <p id={keyId}>{t('security.totp.manual')}</p>
          <code className="security-key" aria-labelledby={keyId}>
            {groupedKey(enrolment.secret)}
          </code>
          <CodeForm label={t('security.totp.firstCode')} submitText={t('security.totp.confirm')} failure={failure} busy={isLoading} onSubmit={(code) => void submit(code)} onCancel={onCancel} />
        </>
      ) : null}
    </Modal>
  );
}

/**
 * "Authenticator app": set one up (a QR code or its key, then a first code) or remove it (with one
 * of its codes, as the server asks).
 */
export function AuthenticatorSection({ overview }: { overview: SecurityOverview }) {
  const { t } = useTranslation('portal');
  const formatDateTime = useFormatDateTime();
  const guard = useRecentSignIn();
  const [enrol, enrolling] = useEnrolTotpMutation();
  const [disable, disabling] = useDisableTotpMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [removing, setRemoving] = useState(false);
  const { failure, fail, clear } = useFailure();
  const removal = useFailure();
  const [toast, toastHolder] = message.useMessage();

  const start = async () => {
    clear();
    const result = await guard(() => enrol({}), { needsRecent: true });
    if (!result) return;
    if (result.error) fail(t('security.totp.enrolFailed'), result.error);
    else setEnrolment(result.data);
  };

  const enrolled = () => {
    setEnrolment(undefined);
    void toast.success(t('security.totp.added'));
  };

  const remove = async (code: string) => {
    removal.clear();
    const result = await guard(() => disable({ code }));
    if (!result) return;
    if (result.error) {
      removal.fail(t('security.totp.removeFailed'), result.error);
      return;
    }
    setRemoving(false);
    void toast.success(t('security.totp.removed'));
  };

  const { enrolled: isEnrolled, enrolledAt } = overview.totp;
  return (
    <SecurityCard title={t('security.totp.title')} intro={t('security.totp.intro')} failure={failure}>
      {toastHolder}
      <p className="security-card__status">
        {isEnrolled
          ? enrolledAt
            ? t('security.totp.enrolledSince', { date: formatDateTime(enrolledAt) })
            : t('security.totp.enrolled')
          : t('security.totp.none')}
      </p>
      <div className="security-card__actions">
        {isEnrolled ? (
          <Button danger onClick={() => setRemoving(true)}>
            {t('security.totp.remove')}
          </Button>
        ) : (
          <Button type="primary" loading={enrolling.isLoading} onClick={() => void start()}>
            {t('security.totp.enrol')}
          </Button>
        )}
      </div>
      <EnrolmentDialog enrolment={enrolment} onDone={enrolled} onCancel={() => setEnrolment(undefined)} />
      <Modal open={removing} title={t('security.totp.removeTitle')} footer={null} onCancel={() => setRemoving(false)} afterClose={removal.clear} destroyOnHidden>
        <p>{t('security.totp.removeText')}</p>
        <CodeForm
          label={t('security.totp.currentCode')}
          submitText={t('security.totp.remove')}
          danger
          failure={removal.failure}
          busy={disabling.isLoading}
          onSubmit={(code) => void remove(code)}
          onCancel={() => setRemoving(false)}
        />
      </Modal>
    </SecurityCard>
  );
}
