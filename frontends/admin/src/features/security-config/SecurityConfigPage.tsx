import EditOutlined from '@ant-design/icons/EditOutlined';
import { identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import message from 'antd/es/message';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listTableProps, toListQuery, useListState } from '../directory/components/list-state';
import { ListPage } from '../directory/components/ListPage';
import { EditConfigDialog } from './EditConfigDialog';
import { useSecurityConfigsQuery, type SecurityConfig } from './security-config-api';
import './security-config.css';

/** Where the list's query is remembered (the pattern of the other lists' keys). */
export const SECURITY_CONFIG_LIST_KEY = 'IDENTITY-SECURITY-CONFIG-LIST';

/**
 * /admin/securityConfig (God): the security settings, read-only in the list (title ascending);
 * each opens the Edit Config dialog. A saved change applies at once.
 */
export default function SecurityConfigPage() {
  const { t } = useTranslation('admin');
  const formatDateTime = useFormatDateTime();
  const list = useListState(SECURITY_CONFIG_LIST_KEY, { sort: { field: 'title', direction: 'asc' } });
  const [state] = list;
  const configs = useSecurityConfigsQuery(toListQuery(state));
  const [editing, setEditing] = useState<SecurityConfig>();
  const [toast, toastHolder] = message.useMessage();

  const columns: ColumnsType<SecurityConfig> = [
    identifying({ key: 'title', dataIndex: 'title', title: t('securityConfig.columns.title'), sorter: true }),
    { key: 'description', title: t('securityConfig.columns.description'), render: (_, config) => t(`securityConfig.descriptions.${config.id}`) },
    { key: 'modifiedBy', title: t('securityConfig.columns.modifiedBy'), render: (_, config) => config.modifiedByDisplayName ?? t('securityConfig.defaults') },
    { key: 'modifiedOn', title: t('securityConfig.columns.modifiedOn'), render: (_, config) => (config.modifiedOn ? formatDateTime(config.modifiedOn) : '') },
    {
      key: 'edit',
      title: '',
      render: (_, config) => (
        <Button type="link" icon={<EditOutlined />} onClick={() => setEditing(config)} aria-label={t('securityConfig.editOf', { title: config.title })}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];

  return (
    <>
      {toastHolder}
      <ListPage<SecurityConfig> title={t('securityConfig.title')} rowKey="id" columns={columns} {...listTableProps(list, configs)} />
      {editing && <EditConfigDialog config={editing} onClose={() => setEditing(undefined)} onSaved={() => void toast.success(t('common.saved'))} />}
    </>
  );
}
