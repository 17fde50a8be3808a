import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import CheckOutlined from '@ant-design/icons/CheckOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import FileExcelOutlined from '@ant-design/icons/FileExcelOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { BreakableText, identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCurrentUser } from '../../auth/use-current-user';
import { useJobQueuedNotice } from '../../shell/use-job-queued-notice';
import { mayCall } from '../../auth/console-access';
import { errorMessage } from '../directory/components/errors';
import { useFeedback } from '../directory/components/feedback';
import { listTableProps, toListQuery, useListState, type ListState, type ListStateHook } from '../directory/components/list-state';
import { ListPage } from '../directory/components/ListPage';
import { AreaFilter } from '../directory/components/selects';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { tenantLinkState, tenantPath } from './crumbs';
import { HierarchyDrawer } from './HierarchyDrawer';
import { NewTenantModal } from './NewTenantModal';
import { useDeleteTenantMutation, useExportTenantsMutation, useTenantsQuery, type Tenant } from './tenants-api';
import { TriStateCheckbox, type TriState } from './TriStateCheckbox';
import { useTenantsTranslation } from './use-tenants-translation';
import './tenants.css';

/** Where the list's query is remembered (the pattern of the other lists' keys). */
export const TENANTS_LIST_KEY = 'IDENTITY-TENANTS-LIST';

/** Where the user's choice of the list's columns is kept. */
export const TENANTS_COLUMNS_KEY = 'IDENTITY-TENANTS-COLUMNS';

/** The list's API parameters: its state, and each tenant's ancestors (the parent column's path). */
export function tenantsQueryOf(state: ListState) {
  return { ...toListQuery(state), includeHierarchy: true };
}

/** The filters' three states as the list state keeps them: `creation` Auto / Manual, `isUserCustomized` true / false, '' for both. */
const creationOf = (state: ListState): TriState => (state.filters.creation ? state.filters.creation === 'Auto' : undefined);
const customizedOf = (state: ListState): TriState => (state.filters.isUserCustomized ? state.filters.isUserCustomized === 'true' : undefined);

/** The root-first path of a tenant's ancestors, ending with its parent. */
function ancestryOf(tenant: Tenant): string | undefined {
  const items = [...(tenant.hierarchyItems ?? [])].sort((a, b) => a.order - b.order);
  return items.length > 1 ? items.map((item) => item.title).join(' › ') : undefined;
}

/** /admin/tenants: the tenants with their filters, export, creation and deletion (Administrator or Manager), and each one's hierarchy. */
export default function TenantsPage() {
  const { t } = useTenantsTranslation();
  const { t: td } = useDirectoryTranslation();
  const formatDateTime = useFormatDateTime();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const canCreate = mayCall(user, 'tenants.create');
  const canDelete = mayCall(user, 'tenants.delete');
  const feedback = useFeedback();
  const list = useListState(TENANTS_LIST_KEY, { sort: { field: 'title', direction: 'asc' } });
  const query = tenantsQueryOf(list[0]);
  const tenants = useTenantsQuery(query);
  const [deleteTenant] = useDeleteTenantMutation();
  const [creating, setCreating] = useState(false);
  const [hierarchyOf, setHierarchyOf] = useState<Tenant>();

  const [startExport, exporting] = useExportTenantsMutation();
  const queued = useJobQueuedNotice();

  // The export is the whole list as filtered, searched and sorted (no page), written in the background.
  const exportTenants = async () => {
    const result = await startExport({ ...query, skip: undefined, top: undefined });
    if (result.error) feedback.error(errorMessage(result.error, td));
    else queued.show(t('exportQueued.title'), t('exportQueued.text'));
  };

  const remove = async (tenant: Tenant) => {
    const confirmed = await feedback.confirm({
      title: t('list.deleteConfirm', { title: tenant.title }),
      content: t('list.deleteWarning'),
      okText: td('common.delete'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await deleteTenant(tenant.id);
    // The server says why (child tenants, another area's tenant).
    if (result.error) feedback.error(errorMessage(result.error, td, { explains403: true }));
    else feedback.success(t('list.deleted', { title: tenant.title }));
  };

  const onCreated = (tenant: Tenant) => {
    setCreating(false);
    feedback.success(t('list.created', { title: tenant.title }));
    void navigate(tenantPath(tenant.id), { state: tenantLinkState(t, tenant.title) });
  };

  const columns: ColumnsType<Tenant> = [
    identifying({
      key: 'title',
      title: t('list.name'),
      sorter: true,
      render: (_, tenant) => (
        <Link to={tenantPath(tenant.id)} state={tenantLinkState(t, tenant.title)}>
          <BreakableText text={tenant.title} />
        </Link>
      ),
    }),
    { key: 'areaName', dataIndex: 'areaName', title: t('list.area'), sorter: true },
    {
      key: 'parentTitle',
      title: t('list.parent'),
      sorter: true,
      render: (_, tenant) => {
        const ancestry = ancestryOf(tenant);
        return ancestry ? <Tooltip title={ancestry}>{tenant.parentTitle}</Tooltip> : tenant.parentTitle;
      },
    },
    { key: 'taxNumber', dataIndex: 'taxNumber', title: t('list.taxNumber'), width: 110 },
    { key: 'viesNumber', dataIndex: 'viesNumber', title: t('list.viesNumber'), width: 130 },
    { key: 'auto', title: t('list.creation'), width: 110, render: (_, tenant) => t(`creation.${tenant.auto}`) },
    {
      key: 'isUserCustomized',
      title: t('list.customized'),
      width: 130,
      align: 'center',
      render: (_, tenant) => (tenant.isUserCustomized ? <CheckOutlined aria-label={t('list.customized')} /> : null),
    },
    { key: 'modifiedOn', title: t('list.modifiedOn'), sorter: true, width: 200, render: (_, tenant) => formatDateTime(tenant.modifiedOn) },
    {
      key: 'actions',
      title: td('common.actions'),
      width: canDelete ? 100 : 64,
      fixed: 'right',
      render: (_, tenant) => (
        <span className="directory-row-actions">
          <Tooltip title={t('list.hierarchy')}>
            <Button
              type="text"
              icon={<ApartmentOutlined />}
              aria-label={t('list.hierarchyOf', { title: tenant.title })}
              onClick={() => setHierarchyOf(tenant)}
            />
          </Tooltip>
          {canDelete ? (
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('list.deleteTenant', { title: tenant.title })}
              onClick={() => void remove(tenant)}
            />
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage<Tenant>
        title={t('list.title')}
        rowKey="id"
        columns={columns}
        columnsStorageKey={TENANTS_COLUMNS_KEY}
        {...listTableProps(list, tenants)}
        filters={<TenantFilters list={list} />}
        toolbar={
          <>
            <Button icon={<FileExcelOutlined />} loading={exporting.isLoading} onClick={() => void exportTenants()}>
              {t('list.export')}
            </Button>
            {canCreate ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                {t('list.newTenant')}
              </Button>
            ) : null}
          </>
        }
      />
      {creating ? <NewTenantModal onClose={() => setCreating(false)} onCreated={onCreated} /> : null}
      {hierarchyOf ? <HierarchyDrawer tenant={hierarchyOf} onClose={() => setHierarchyOf(undefined)} /> : null}
      {feedback.holder}
      {queued.holder}
    </>
  );
}

/** The area filter and the creation-type and customised three-state boxes. */
function TenantFilters({ list }: { list: ListStateHook }) {
  const { t } = useTenantsTranslation();
  const [state, setState] = list;
  const setFilter = (name: string, value: string) => setState({ filters: { ...state.filters, [name]: value } });
  return (
    <>
      <AreaFilter list={list} label={t('list.area')} placeholder={t('list.allAreas')} />
      <TriStateCheckbox
        label={t('list.autoFilter')}
        help={t('list.autoFilterHelp')}
        value={creationOf(state)}
        onChange={(value) => setFilter('creation', value === undefined ? '' : value ? 'Auto' : 'Manual')}
      />
      <TriStateCheckbox
        label={t('list.customizedFilter')}
        help={t('list.customizedFilterHelp')}
        value={customizedOf(state)}
        onChange={(value) => setFilter('isUserCustomized', value === undefined ? '' : String(value))}
      />
    </>
  );
}
