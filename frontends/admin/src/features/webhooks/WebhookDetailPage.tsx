import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import KeyOutlined from '@ant-design/icons/KeyOutlined';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Skeleton from 'antd/es/skeleton';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../shell/PageHeader';
import { useBackTo } from '../directory/components/crumbs';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import type { Feedback } from '../directory/components/feedback';
import { webhooksCrumb } from './crumbs';
import { changesOf, formValuesOf, showWebhookErrors, WEBHOOK_FIELDS, type WebhookFormValues } from './form-values';
import { useWebhookActions } from './use-webhook-actions';
import { useWebhooksTranslation } from './use-webhooks-translation';
import { WebhookDeliveries } from './WebhookDeliveries';
import { WebhookForm } from './WebhookForm';
import { WebhookSecretDialog } from './WebhookSecretDialog';
import { DISABLED_FOR_FAILING, WebhookStatusTag } from './WebhookStatusTag';
import { useUpdateWebhookMutation, useWebhookQuery, type Webhook, type WebhookSecret } from './webhooks-api';
import './webhooks.css';

/** /admin/webhooks/{id}: the endpoint's settings on the left, its delivery log on the right; rotate its secret, delete it. */
export default function WebhookDetailPage() {
  const { id = '' } = useParams();
  const { t } = useWebhooksTranslation();
  const navigate = useNavigate();
  const actions = useWebhookActions();
  const backTo = useBackTo('/webhooks');
  const { data: webhook, error, isLoading } = useWebhookQuery(id);
  const [secret, setSecret] = useState<WebhookSecret>();

  if (!webhook) {
    return (
      <>
        <PageHeader title={t('list.title')} breadcrumbs={[webhooksCrumb(t)]} back={backTo} />
        {isLoading ? <Skeleton active /> : <ErrorAlert error={error} />}
      </>
    );
  }

  const extra = (
    <>
      <Button icon={<KeyOutlined />} onClick={() => void actions.rotateSecret(webhook).then((rotated) => rotated && setSecret(rotated))}>
        {t('secret.rotate')}
      </Button>
      <Button danger icon={<DeleteOutlined />} onClick={() => void actions.remove(webhook).then((done) => done && navigate('/webhooks'))}>
        {t('detail.delete')}
      </Button>
    </>
  );

  return (
    <>
      <PageHeader title={webhook.url} breadcrumbs={[webhooksCrumb(t), { title: webhook.url }]} back={backTo} extra={extra} />
      {!webhook.enabled && webhook.disabledReason === DISABLED_FOR_FAILING ? (
        <Alert type="warning" showIcon className="directory-form-error" title={t('status.failing')} description={t('status.failingHelp')} />
      ) : null}
      <div className="directory-detail">
        <div className="directory-detail__main">
          <SettingsCard key={webhook.id} webhook={webhook} feedback={actions.feedback} />
        </div>
        <div className="directory-detail__side">
          <Card title={t('deliveries.title')}>
            <WebhookDeliveries webhookId={webhook.id} feedback={actions.feedback} />
          </Card>
        </div>
      </div>
      {secret ? (
        <WebhookSecretDialog url={webhook.url} secret={secret.secret} previousSecretExpiresAt={secret.previousSecretExpiresAt} onClose={() => setSecret(undefined)} />
      ) : null}
      {actions.feedback.holder}
    </>
  );
}

/** The left card: the endpoint's facts, its settings form and its Save button. */
function SettingsCard({ webhook, feedback }: { webhook: Webhook; feedback: Feedback }) {
  const { t } = useWebhooksTranslation();
  const formatDateTime = useFormatDateTime();
  const [form] = Form.useForm<WebhookFormValues>();
  const [update, { isLoading }] = useUpdateWebhookMutation();
  const [error, setError] = useState<unknown>();
  // What "still signed with" is read against: when the page opened (a render reads no clock).
  const [openedAt] = useState(Date.now);

  const save = async (values: WebhookFormValues) => {
    setError(undefined);
    const result = await update({ id: webhook.id, changes: changesOf(values) });
    if (result.error) {
      if (!showWebhookErrors(form, result.error, WEBHOOK_FIELDS)) setError(result.error);
      return;
    }
    feedback.success(t('common.saved'));
  };

  return (
    <Card title={t('detail.settings')}>
      <Descriptions
        column={1}
        size="small"
        className="webhooks-facts"
        items={[
          { key: 'status', label: t('list.status'), children: <WebhookStatusTag webhook={webhook} /> },
          { key: 'createdAt', label: t('detail.createdAt'), children: formatDateTime(webhook.createdAt) },
          ...(webhook.createdByName ? [{ key: 'createdBy', label: t('detail.createdBy'), children: webhook.createdByName }] : []),
        ]}
      />
      {webhook.previousSecretExpiresAt && new Date(webhook.previousSecretExpiresAt).getTime() > openedAt ? (
        <Alert type="info" showIcon className="directory-form-error" title={t('secret.previousUntil', { date: formatDateTime(webhook.previousSecretExpiresAt) })} />
      ) : null}
      <ErrorAlert error={error} className="directory-form-error" />
      <WebhookForm
        form={form}
        name="webhook-settings"
        applicationName={webhook.applicationId ? (webhook.applicationName ?? webhook.applicationId) : null}
        initialValues={formValuesOf(webhook)}
        onFinish={(values) => void save(values)}
      />
      <Button type="primary" loading={isLoading} onClick={() => form.submit()}>
        {t('common.save')}
      </Button>
    </Card>
  );
}
