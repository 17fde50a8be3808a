import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Skeleton from 'antd/es/skeleton';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PageHeader } from '../../../shell/PageHeader';
import { useGroupQuery, useUpdateGroupMutation, type Group, type GroupChanges } from '../api/groups-api';
import { useDirectoryAccess, type DirectoryAccess } from '../components/access';
import { groupsCrumb, useBackTo } from '../components/crumbs';
import { ErrorAlert } from '../components/ErrorAlert';
import { showFieldErrors } from '../components/errors';
import { useFeedback, type Feedback } from '../components/feedback';
import { useDirectoryTranslation } from '../use-directory-translation';
import { GROUP_FIELDS, GroupForm } from './GroupForm';
import { GroupMembers } from './GroupMembers';
import { GroupTenantRoles } from './GroupTenantRoles';

/** The group every user belongs to, once it grants roles globally. */
export const USERS_GROUP_NAME = 'Users';

/**
 * The spec's Users-group rule: once the Users group has a Global entry, only God may change it
 * (the server refuses the others too; hiding the controls spares them the refusal).
 */
export function isLockedUsersGroup(group: Pick<Group, 'name' | 'tenants'>, access: Pick<DirectoryAccess, 'isGod'>): boolean {
  return !access.isGod && group.name === USERS_GROUP_NAME && group.tenants.some((tenant) => tenant.id === null);
}

/** /admin/groups/{id}: a group's properties, tenant roles and members. */
export function GroupDetailPage() {
  const { id = '' } = useParams();
  const { t } = useDirectoryTranslation();
  const access = useDirectoryAccess();
  const feedback = useFeedback();
  const backTo = useBackTo('/groups');
  const { data: group, error, isLoading } = useGroupQuery(id);

  if (!group) {
    return (
      <>
        <PageHeader title={t('groups.title')} breadcrumbs={[groupsCrumb(t)]} back={backTo} />
        {isLoading ? <Skeleton active /> : <ErrorAlert error={error} />}
      </>
    );
  }

  const locked = isLockedUsersGroup(group, access);
  const editable = access.canWrite && !locked;
  return (
    <>
      <PageHeader title={group.name} breadcrumbs={[groupsCrumb(t), { title: group.name }]} back={backTo} />
      {locked ? <Alert type="info" showIcon className="directory-form-error" title={t('groupDetail.readOnlyUsersGroup')} /> : null}
      <div className="directory-detail">
        <div className="directory-detail__main">
          <GroupGeneralCard key={group.id} group={group} editable={editable} feedback={feedback} />
          <GroupTenantRoles groupId={group.id} editable={editable} withGlobal={access.isAdministrator} feedback={feedback} />
        </div>
        <div className="directory-detail__side">
          <GroupMembers group={group} feedback={feedback} />
        </div>
      </div>
      {feedback.holder}
    </>
  );
}

function GroupGeneralCard({ group, editable, feedback }: { group: Group; editable: boolean; feedback: Feedback }) {
  const { t } = useDirectoryTranslation();
  const [form] = Form.useForm<GroupChanges>();
  const [update, { isLoading }] = useUpdateGroupMutation();
  const [error, setError] = useState<unknown>();

  const save = async (changes: GroupChanges) => {
    setError(undefined);
    const result = await update({ id: group.id, changes });
    if (result.error) {
      if (!showFieldErrors(form, result.error, GROUP_FIELDS)) setError(result.error);
      return;
    }
    feedback.success(t('common.saved'));
  };

  return (
    <Card title={t('groupDetail.general')}>
      <ErrorAlert error={error} className="directory-form-error" />
      <GroupForm
        form={form}
        name="group-general"
        disabled={!editable}
        initialValues={{ name: group.name, description: group.description ?? undefined, areaId: group.areaId }}
        onFinish={(changes) => void save(changes)}
      />
      {editable ? (
        <Button type="primary" loading={isLoading} onClick={() => form.submit()}>
          {t('common.save')}
        </Button>
      ) : null}
    </Card>
  );
}
