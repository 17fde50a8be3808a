import HistoryOutlined from '@ant-design/icons/HistoryOutlined';
import { OPERATION_REQUEST_STATUSES } from '@gatehouse/contracts';
import { ReadableTable, RoleTag, identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../api/errors';
import { useTimedMessages } from '../account/use-timed-messages';
import {
  useApproveRequestMutation,
  useApproveRequestsMutation,
  useCancelRequestMutation,
  useOperationRequestsQuery,
  useRejectRequestMutation,
  useRejectRequestsMutation,
  useRequestHistoryQuery,
  type BulkOutcome,
  type OperationRequest,
} from './clients-api';
import type { TenantOption } from './TenantSelect';
import { OPERATION_ERROR_MS } from './UserWizard';

const PAGE_SIZE = 10;
type Status = OperationRequest['status'];

/** Whether a request may be approved or rejected now by the caller. */
export const isDecidable = (request: OperationRequest) => request.status === 'WaitingForApprover' && request.canApprove;

/** The bulk buttons show only when every selected request is waiting and the caller may decide it. */
export function canDecideAll(selected: readonly OperationRequest[]): boolean {
  return selected.length > 0 && selected.every(isDecidable);
}

function HistoryDrawer({ request, onClose }: { request: OperationRequest | undefined; onClose: () => void }) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const history = useRequestHistoryQuery(request?.id ?? '', { skip: !request });
  return (
    <Drawer open={!!request} placement="right" title={t('clients.requests.historyTitle', { name: request?.displayName ?? '' })} onClose={onClose} destroyOnHidden>
      {history.error ? <Alert type="error" showIcon title={failureMessage(history.error, common)} /> : null}
      <Table
        rowKey="id"
        size="small"
        loading={history.isFetching}
        pagination={false}
        dataSource={history.data?.items ?? []}
        columns={[
          { key: 'date', title: t('clients.requests.date'), render: (_, entry) => formatDateTime(entry.date) },
          { key: 'email', title: t('clients.requests.by'), dataIndex: 'email' },
          { key: 'type', title: t('clients.requests.type'), dataIndex: 'requestType' },
          { key: 'status', title: t('clients.requests.status'), render: (_, entry) => t(`clients.status.${entry.status}`) },
        ]}
      />
    </Drawer>
  );
}

/** The requests a bulk decision refused, as one message each. */
function refusals(outcome: BulkOutcome): string[] {
  return outcome.items.flatMap((item) => (item.error ? [item.error.message] : []));
}

/**
 * My Clients' Access Requests view: the tenant's operation requests by status, approved or rejected
 * one by one or in bulk (approving asks for a confirmation), cancelled by their requester, with
 * each request's history in a side drawer.
 */
export function AccessRequests({ tenant }: { tenant: TenantOption | undefined }) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const [status, setStatus] = useState<Status | undefined>('WaitingForApprover');
  const [page, setPage] = useState(1);
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  // The requests as the approver saw them: the approval names each one's version.
  const [confirming, setConfirming] = useState<{ requests: Array<Pick<OperationRequest, 'id' | 'version'>>; bulk: boolean }>();
  const [historyOf, setHistoryOf] = useState<OperationRequest>();
  const [errors, showErrors] = useTimedMessages(OPERATION_ERROR_MS);
  const requests = useOperationRequestsQuery({ tenantId: tenant?.id ?? '', status, skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE }, { skip: !tenant });
  const [approveOne, approvingOne] = useApproveRequestMutation();
  const [rejectOne] = useRejectRequestMutation();
  const [cancelOne] = useCancelRequestMutation();
  const [approveMany, approvingMany] = useApproveRequestsMutation();
  const [rejectMany] = useRejectRequestsMutation();

  const items = tenant ? (requests.data?.items ?? []) : [];
  const selected = items.filter((item) => selectedIds.includes(item.id));

  /** Runs an action; its failure shows for five seconds; the list is read again either way. */
  const act = async (run: () => Promise<{ data?: unknown; error?: unknown }>, bulk = false) => {
    const result = await run();
    if (result.error) showErrors([failureMessage(result.error, common)]);
    else if (bulk) showErrors(refusals(result.data as BulkOutcome));
    setSelectedIds([]);
    void requests.refetch();
  };

  const approve = async () => {
    if (!confirming) return;
    const { requests: seen, bulk } = confirming;
    setConfirming(undefined);
    if (bulk) await act(() => approveMany(seen), true);
    else await act(() => approveOne(seen[0]!));
  };

  const columns: ColumnsType<OperationRequest> = [
    identifying({ key: 'displayName', title: t('clients.requests.name'), dataIndex: 'displayName' }),
    identifying({ key: 'email', title: t('clients.requests.email'), dataIndex: 'email' }),
    { key: 'tenantName', title: t('clients.requests.tenant'), dataIndex: 'tenantName' },
    { key: 'createdBy', title: t('clients.requests.createdBy'), dataIndex: 'createdByDisplayName' },
    { key: 'modificationDate', title: t('clients.requests.date'), render: (_, request) => formatDateTime(request.modificationDate) },
    // The roles asked for: not held (yet), so without an origin.
    { key: 'roles', title: t('clients.requests.roles'), render: (_, request) => request.roles.map((role) => <RoleTag key={role.roleId} application={role.applicationName} role={role.roleName} />) },
    { key: 'status', title: t('clients.requests.status'), render: (_, request) => <Tag>{t(`clients.status.${request.status}`)}</Tag> },
    {
      key: 'actions',
      fixed: 'right',
      title: t('clients.requests.actions'),
      render: (_, request) => (
        <Space size="small" wrap>
          {isDecidable(request) ? (
            <>
              <Button size="small" type="primary" onClick={() => setConfirming({ requests: [request], bulk: false })}>
                {t('clients.requests.approve')}
              </Button>
              <Button size="small" danger onClick={() => void act(() => rejectOne(request.id))}>
                {t('clients.requests.reject')}
              </Button>
            </>
          ) : null}
          {request.isMine && request.status === 'WaitingForApprover' ? (
            <Button size="small" onClick={() => void act(() => cancelOne(request.id))}>
              {t('clients.requests.cancel')}
            </Button>
          ) : null}
          <Button size="small" type="text" icon={<HistoryOutlined aria-hidden />} aria-label={t('clients.requests.history', { name: request.displayName })} onClick={() => setHistoryOf(request)} />
        </Space>
      ),
    },
  ];

  return (
    <div className="clients-view">
      <div className="clients-view__toolbar">
        <Select<Status>
          allowClear
          aria-label={t('clients.requests.statusFilter')}
          placeholder={t('clients.requests.statusFilter')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
            setSelectedIds([]);
          }}
          options={OPERATION_REQUEST_STATUSES.map((value) => ({ value, label: t(`clients.status.${value}`) }))}
        />
        {canDecideAll(selected) ? (
          <>
            <Button type="primary" onClick={() => setConfirming({ requests: selected, bulk: true })}>
              {t('clients.requests.approveSelected')}
            </Button>
            <Button danger onClick={() => void act(() => rejectMany(selected.map((item) => item.id)), true)}>
              {t('clients.requests.rejectSelected')}
            </Button>
          </>
        ) : null}
      </div>
      {errors.map((error) => (
        <Alert key={error} type="error" showIcon title={error} />
      ))}
      {requests.error ? <Alert type="error" showIcon title={failureMessage(requests.error, common)} /> : null}
      <ReadableTable<OperationRequest>
        rowKey="id"
        columns={columns}
        dataSource={items}
        loading={requests.isFetching}
        rowSelection={{ selectedRowKeys: selectedIds, onChange: (keys) => setSelectedIds(keys.map(String)) }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: requests.data?.count ?? 0, onChange: setPage, showSizeChanger: false }}
        locale={tenant ? undefined : { emptyText: t('clients.selectTenant') }}
      />
      <Modal
        open={!!confirming}
        title={t('clients.requests.confirmTitle')}
        okText={t('clients.requests.approve')}
        cancelText={t('clients.wizard.cancel')}
        confirmLoading={approvingOne.isLoading || approvingMany.isLoading}
        onOk={() => void approve()}
        onCancel={() => setConfirming(undefined)}
        destroyOnHidden
      >
        <p>{t('clients.requests.confirmWarning')}</p>
      </Modal>
      <HistoryDrawer request={historyOf} onClose={() => setHistoryOf(undefined)} />
    </div>
  );
}
