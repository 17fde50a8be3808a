import EditOutlined from '@ant-design/icons/EditOutlined';
import { ReadableTable, RoleTag, identifying } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../api/errors';
import { useTimedMessages } from '../account/use-timed-messages';
import { RequireRoles } from '../clients/access';
import { SERVICE_MANAGER_ROLES } from '../clients/roles';
import { SUCCESS_NOTICE_SECONDS } from '../clients/ClientsPage';
import { ownRoleIds, PermissionEditor } from '../clients/PermissionEditor';
import { TENANT_PAGE_SIZE, TenantSelect, type TenantOption } from '../clients/TenantSelect';
import { OPERATION_ERROR_MS } from '../clients/UserWizard';
import '../clients/clients.css';
import {
  useServiceManagerPermissionsQuery,
  useServiceManagerTenantsQuery,
  useServiceManagerUsersQuery,
  useSetServiceManagerPermissionsMutation,
  type ServiceManagerUser,
} from './service-manager-api';

const PAGE_SIZE = 10;

interface RolesDialogProps {
  tenant: TenantOption;
  user: ServiceManagerUser;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * The user's roles in the tenant, each with how it is held and, when the caller may not change it,
 * why (the API's reason); those of service-manager visibility changed at once on Save.
 */
function RolesDialog({ tenant, user, onClose, onSaved }: RolesDialogProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const permissions = useServiceManagerPermissionsQuery({ tenantId: tenant.id, userId: user.id });
  const [edited, setRoles] = useState<string[]>();
  const [adding, setAdding] = useState(false);
  const [errors, showErrors] = useTimedMessages(OPERATION_ERROR_MS);
  const [save, saving] = useSetServiceManagerPermissionsMutation();
  const data = permissions.data;
  // Until the first change, the roles the user holds on their own.
  const roles = edited ?? (data ? ownRoleIds(data.applications) : undefined);

  const submit = async () => {
    if (!data || !roles) return;
    const result = await save({ tenantId: tenant.id, userId: user.id, body: { isInheritable: data.isInheritable, roles } });
    if (result.error) {
      showErrors([failureMessage(result.error, common)]);
      return;
    }
    onSaved();
    onClose();
  };

  return (
    <Modal
      open
      title={t('serviceManager.editTitle', { name: user.fullName })}
      okText={t('serviceManager.save')}
      cancelText={t('clients.wizard.cancel')}
      okButtonProps={{ disabled: !edited || adding, loading: saving.isLoading }}
      onOk={() => void submit()}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      {errors.map((error) => (
        <Alert key={error} type="error" showIcon title={error} />
      ))}
      {permissions.error ? <Alert type="error" showIcon title={failureMessage(permissions.error, common)} /> : null}
      {data && roles ? <PermissionEditor applications={data.applications} selected={roles} onChange={setRoles} onAddingChange={setAdding} /> : <Skeleton active />}
    </Modal>
  );
}

function ServiceManagerScreen() {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const [tenant, setTenant] = useState<TenantOption>();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ServiceManagerUser>();
  const [toast, toastHolder] = message.useMessage();
  // The selector's first page (the same call): empty, the user has no tenant to manage.
  const firstPage = useServiceManagerTenantsQuery({ take: TENANT_PAGE_SIZE });
  const users = useServiceManagerUsersQuery({ tenantId: tenant?.id ?? '', skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE }, { skip: !tenant });

  const chooseTenant = (next: TenantOption | undefined) => {
    setTenant(next);
    setPage(1);
  };

  const columns: ColumnsType<ServiceManagerUser> = [
    identifying({ key: 'fullName', title: t('clients.columns.name'), dataIndex: 'fullName' }),
    identifying({ key: 'userName', title: t('clients.columns.userName'), dataIndex: 'userName' }),
    identifying({ key: 'email', title: t('clients.columns.email'), dataIndex: 'email' }),
    {
      key: 'roles',
      title: t('serviceManager.roles'),
      render: (_, user) => user.roles.map((role) => <RoleTag key={role.roleId} application={role.applicationDisplayName} role={role.roleName} origins={role.origins} />),
    },
    {
      key: 'edit',
      fixed: 'right',
      title: t('clients.columns.edit'),
      render: (_, user) => <Button type="text" icon={<EditOutlined aria-hidden />} aria-label={t('serviceManager.edit', { name: user.fullName })} onClick={() => setEditing(user)} />,
    },
  ];

  const noTenant = firstPage.isSuccess && firstPage.data.count === 0;

  return (
    <section className="clients-page" aria-labelledby="service-manager-title">
      {toastHolder}
      <h1 id="service-manager-title" className="shell-page-title">
        {t('menu.serviceManager')}
      </h1>
      {firstPage.error ? <Alert type="error" showIcon title={failureMessage(firstPage.error, common)} /> : null}
      {noTenant ? (
        <Empty description={t('serviceManager.noTenant')}>
          <Button type="link" onClick={() => void firstPage.refetch()}>
            {t('serviceManager.refresh')}
          </Button>
        </Empty>
      ) : (
        <>
          <div className="clients-page__bar">
            <TenantSelect label={t('clients.tenant')} placeholder={t('clients.selectTenant')} value={tenant} onChange={chooseTenant} useTenants={useServiceManagerTenantsQuery} autoSelectFirst />
          </div>
          {users.error ? <Alert type="error" showIcon title={failureMessage(users.error, common)} /> : null}
          <ReadableTable<ServiceManagerUser>
            rowKey="id"
            columns={columns}
            dataSource={tenant ? (users.data?.items ?? []) : []}
            loading={users.isFetching}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: users.data?.count ?? 0, onChange: setPage, showSizeChanger: false }}
          />
        </>
      )}
      {editing && tenant ? (
        <RolesDialog tenant={tenant} user={editing} onClose={() => setEditing(undefined)} onSaved={() => void toast.success(t('clients.saved'), SUCCESS_NOTICE_SECONDS)} />
      ) : null}
    </section>
  );
}

/** Service Manager (/service-manager): for service managers; anybody else is told so. */
export default function ServiceManagerPage() {
  return (
    <RequireRoles roles={SERVICE_MANAGER_ROLES} screen="serviceManager">
      <ServiceManagerScreen />
    </RequireRoles>
  );
}
