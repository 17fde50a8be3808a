import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../features/directory/components/ErrorAlert';
import { UserSelect } from '../../features/directory/components/selects';
import { useIdentifyAsMutation } from './identify-as-api';

export interface IdentifyAsDialogProps {
  maxMinutes: number;
  onClose: () => void;
  /** Sends the browser to the identity provider's link. */
  leave: (url: string) => void;
}

/** Picks the user to sign in as; confirming sends the browser to the identity provider's one-time link. */
export default function IdentifyAsDialog({ maxMinutes, onClose, leave }: IdentifyAsDialogProps) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ userId: string }>();
  const [identifyAs, { isLoading, error, isSuccess }] = useIdentifyAsMutation();

  const confirm = async ({ userId }: { userId: string }) => {
    const result = await identifyAs(userId);
    if (result.data) leave(result.data.redirectUrl);
  };

  return (
    <Modal
      open
      title={t('dashboard.identifyAs.title')}
      okText={t('dashboard.identifyAs.confirm')}
      cancelText={t('common.cancel')}
      // Once the link is issued the browser is leaving: nothing more to press.
      confirmLoading={isLoading || isSuccess}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Alert type="warning" showIcon title={t('dashboard.identifyAs.explanation', { minutes: maxMinutes })} className="admin-identify-as__notice" />
      {/* A refusal says why (a God user, a locked account…), 403 included. */}
      <ErrorAlert error={error} explains403 className="admin-identify-as__notice" />
      <Form form={form} layout="vertical" name="identify-as" onFinish={(values) => void confirm(values)}>
        <Form.Item name="userId" label={t('dashboard.identifyAs.user')} rules={[{ required: true, message: t('dashboard.identifyAs.userRequired') }]}>
          <UserSelect placeholder={t('dashboard.identifyAs.userPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
