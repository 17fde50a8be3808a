import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import EditOutlined from '@ant-design/icons/EditOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { ROLE_SCOPE_MAX, ROLE_SCOPE_PATTERN } from '@gatehouse/contracts';
import { identifying } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import type { ColumnsType } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { DataTable } from '../../directory/components/DataTable';
import { errorMessage } from '../../directory/components/errors';
import { FormDialog, useFormSubmit } from '../../directory/components/FormDialog';
import type { Feedback } from '../../directory/components/feedback';
import { listTableProps, toListQuery, useListState } from '../../directory/components/list-state';
import { useDirectoryTranslation } from '../../directory/use-directory-translation';
import {
  useCreateRoleScopeMutation,
  useDeleteRoleScopeMutation,
  useRoleScopesQuery,
  useUpdateRoleScopeMutation,
  type RoleKey,
  type RoleScope,
} from './app-roles-api';
import { useApplicationRolesTranslation } from './use-application-roles-translation';

const SCOPE_FIELDS = ['scope'] as const;

interface ScopeDialogProps extends RoleKey {
  /** The scope to change; none: a new one. */
  scope?: RoleScope;
  onClose: () => void;
  onSaved: (scope: RoleScope) => void;
}

/** New role's scope, or the change of one: the spec's character rule is shown under the field and checked as typed. */
function ScopeDialog({ appId, roleId, scope, onClose, onSaved }: ScopeDialogProps) {
  const { t } = useApplicationRolesTranslation();
  const { t: common } = useDirectoryTranslation();
  const [form] = Form.useForm<{ scope: string }>();
  const [create, creating] = useCreateRoleScopeMutation();
  const [update, updating] = useUpdateRoleScopeMutation();
  const { error, send } = useFormSubmit(form, SCOPE_FIELDS);

  const save = ({ scope: value }: { scope: string }) => {
    const trimmed = value.trim();
    return scope
      ? send(() => update({ appId, roleId, scopeId: scope.id, scope: trimmed }), onSaved)
      : send(() => create({ appId, roleId, scope: trimmed }), onSaved);
  };

  return (
    <FormDialog
      title={scope ? t('scopes.editScope') : t('scopes.newScope')}
      okText={scope ? common('common.save') : common('common.create')}
      form={form}
      loading={creating.isLoading || updating.isLoading}
      error={error}
      onClose={onClose}
    >
      <Form<{ scope: string }> form={form} name="role-scope" layout="vertical" initialValues={{ scope: scope?.scope }} onFinish={(values) => void save(values)}>
        <Form.Item
          name="scope"
          label={t('scopes.scope')}
          extra={t('scopes.rule')}
          rules={[
            { required: true, whitespace: true, message: t('scopes.scopeRequired') },
            { validator: async (_, value?: string) => (!value?.trim() || ROLE_SCOPE_PATTERN.test(value.trim()) ? undefined : Promise.reject(new Error(t('scopes.invalid')))) },
          ]}
        >
          <Input maxLength={ROLE_SCOPE_MAX} autoComplete="off" spellCheck={false} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}

export interface RoleScopesProps {
  applicationId: string;
  roleId: string;
  /** Administrators add, change and delete scopes; others read them. */
  editable: boolean;
  feedback: Feedback;
}

/** The role's Role access scopes tab: its scopes, and for administrators New role's scope, edit and delete. */
export function RoleScopes({ applicationId, roleId, editable, feedback }: RoleScopesProps) {
  const { t } = useApplicationRolesTranslation();
  const { t: common } = useDirectoryTranslation();
  const list = useListState(undefined, { sort: { field: 'scope', direction: 'asc' } });
  const key = { appId: applicationId, roleId };
  const scopes = useRoleScopesQuery({ ...key, query: toListQuery(list[0]) });
  const [remove] = useDeleteRoleScopeMutation();
  const [editing, setEditing] = useState<RoleScope | 'new' | null>(null);

  const deleteScope = async (scope: RoleScope) => {
    const confirmed = await feedback.confirm({ title: t('scopes.deleteConfirm', { scope: scope.scope }), okText: common('common.delete'), danger: true });
    if (!confirmed) return;
    const result = await remove({ ...key, scopeId: scope.id });
    if (result.error) feedback.error(errorMessage(result.error, common));
    else feedback.success(t('scopes.deleted', { scope: scope.scope }));
  };

  const columns: ColumnsType<RoleScope> = [identifying({ key: 'scope', dataIndex: 'scope', title: t('scopes.scope'), sorter: true })];
  if (editable) {
    columns.push({
      key: 'actions',
      title: common('common.actions'),
      width: 104,
      render: (_, scope) => (
        <span className="directory-row-actions">
          <Tooltip title={t('scopes.edit', { scope: scope.scope })}>
            <Button type="text" icon={<EditOutlined />} aria-label={t('scopes.edit', { scope: scope.scope })} onClick={() => setEditing(scope)} />
          </Tooltip>
          <Tooltip title={t('scopes.delete', { scope: scope.scope })}>
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('scopes.delete', { scope: scope.scope })} onClick={() => void deleteScope(scope)} />
          </Tooltip>
        </span>
      ),
    });
  }

  return (
    <>
      <DataTable<RoleScope>
        label={t('roleDetail.scopesTab')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, scopes)}
        toolbar={
          editable ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('scopes.newScope')}
            </Button>
          ) : null
        }
      />
      {editing ? (
        <ScopeDialog
          {...key}
          scope={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(scope) => {
            const created = editing === 'new';
            setEditing(null);
            feedback.success(created ? t('scopes.created', { scope: scope.scope }) : common('common.saved'));
          }}
        />
      ) : null}
    </>
  );
}
