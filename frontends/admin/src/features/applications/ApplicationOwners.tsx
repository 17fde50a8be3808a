import MinusCircleOutlined from '@ant-design/icons/MinusCircleOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import { Link } from 'react-router';
import { breadcrumbState } from '../../shell/PageHeader';
import { errorMessage } from '../directory/components/errors';
import type { Feedback } from '../directory/components/feedback';
import { UserSelect } from '../directory/components/selects';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { useAddApplicationOwnerMutation, useRemoveApplicationOwnerMutation, type ApplicationDetail, type ApplicationOwner } from './applications-api';
import { applicationPath, applicationsCrumb } from './crumbs';
import { useApplicationsTranslation } from './use-applications-translation';

/** How an owner is named: user name, with the full name when there is one. */
export function ownerName(owner: ApplicationOwner): string {
  const fullName = [owner.firstName, owner.lastName].filter(Boolean).join(' ');
  return fullName ? `${owner.userName} (${fullName})` : owner.userName;
}

export interface ApplicationOwnersProps {
  application: Pick<ApplicationDetail, 'id' | 'displayName' | 'owners'>;
  /** Administrators add and remove owners. */
  editable: boolean;
  feedback: Feedback;
}

/** The Owners card: the users who may delete the application; administrators add and remove them. */
export function ApplicationOwners({ application, editable, feedback }: ApplicationOwnersProps) {
  const { t } = useApplicationsTranslation();
  const { t: td } = useDirectoryTranslation();
  const [form] = Form.useForm<{ userId?: string }>();
  const [addOwner, { isLoading: adding }] = useAddApplicationOwnerMutation();
  const [removeOwner] = useRemoveApplicationOwnerMutation();
  const trail = [applicationsCrumb(t), { title: application.displayName, to: applicationPath(application.id) }];

  const add = async ({ userId }: { userId?: string }) => {
    if (!userId) return;
    const result = await addOwner({ id: application.id, userId });
    if (result.error) {
      form.setFields([{ name: 'userId', errors: [errorMessage(result.error, td, { explains403: true })] }]);
      return;
    }
    form.resetFields();
    const added = result.data.find((owner) => owner.id === userId);
    feedback.success(t('detail.ownerAdded', { name: added ? ownerName(added) : userId }));
  };

  const remove = async (owner: ApplicationOwner) => {
    const confirmed = await feedback.confirm({ title: t('detail.removeOwnerConfirm', { name: ownerName(owner) }), okText: t('common.remove'), danger: true });
    if (!confirmed) return;
    const result = await removeOwner({ id: application.id, userId: owner.id });
    if (result.error) feedback.error(errorMessage(result.error, td, { explains403: true }));
    else feedback.success(t('detail.ownerRemoved', { name: ownerName(owner) }));
  };

  return (
    <Card title={t('detail.owners')}>
      <p className="applications-owners__help">{t('detail.ownersHelp')}</p>
      {application.owners.length ? (
        <ul className="applications-owners">
          {application.owners.map((owner) => (
            <li key={owner.id}>
              <Link to={`${applicationPath(application.id, 'users')}/${encodeURIComponent(owner.id)}`} state={breadcrumbState([...trail, { title: owner.userName }])}>
                {ownerName(owner)}
              </Link>
              {editable ? (
                <Button
                  type="text"
                  danger
                  icon={<MinusCircleOutlined />}
                  aria-label={t('detail.removeOwner', { name: ownerName(owner) })}
                  onClick={() => void remove(owner)}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="applications-owners__none">{t('detail.noOwners')}</p>
      )}
      {editable ? (
        <Form form={form} name="application-owner" layout="inline" className="applications-owners__add" onFinish={(values) => void add(values)}>
          <Form.Item name="userId" rules={[{ required: true, message: t('detail.ownerRequired') }]} className="applications-owners__user">
            <UserSelect aria-label={t('detail.owner')} placeholder={t('detail.owner')} />
          </Form.Item>
          <Button htmlType="submit" icon={<PlusOutlined />} loading={adding}>
            {t('detail.addOwner')}
          </Button>
        </Form>
      ) : null}
    </Card>
  );
}
