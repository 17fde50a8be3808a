import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import { identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Skeleton from 'antd/es/skeleton';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { listTableProps, toListQuery, useListState } from '../directory/components/list-state';
import { ListPage } from '../directory/components/ListPage';
import {
  downloadRightsDocument,
  useRightsRequestQuery,
  useRightsRequestsQuery,
  type RightsRequestDetail,
  type RightsRequestFile,
  type RightsRequestSummary,
} from './rights-requests-api';
import './rights-requests.css';

/** Where the list's query is remembered (the pattern of the other lists' keys). */
export const RIGHTS_REQUESTS_LIST_KEY = 'IDENTITY-RIGHTS-REQUESTS-LIST';

/** A `YYYY-MM-DD` day in the console's date format, DD-MM-YYYY. */
export const shownDay = (day: string) => day.split('-').reverse().join('-');

function RightTags({ rights }: { rights: RightsRequestSummary['rights'] }) {
  const { t } = useTranslation('admin');
  return (
    <>
      {rights.map((right) => (
        <Tag key={right}>{t(`rightsRequests.right.${right}`)}</Tag>
      ))}
    </>
  );
}

function DocumentList({ request }: { request: RightsRequestDetail }) {
  const { t } = useTranslation('admin');
  const [error, setError] = useState<unknown>();
  const download = (file: RightsRequestFile) => {
    setError(undefined);
    downloadRightsDocument(request.id, file).catch(setError);
  };
  return (
    <>
      <ErrorAlert error={error} />
      <ul className="rights-requests__documents">
        {request.files.map((file) => (
          <li key={file.id}>
            <Button type="link" icon={<DownloadOutlined />} onClick={() => download(file)} aria-label={t('rightsRequests.download', { name: file.fileName })}>
              {file.fileName}
            </Button>
            <span>{t('rightsRequests.size', { size: Math.max(1, Math.round(file.size / 1024)) })}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

function RequestDescription({ request }: { request: RightsRequestDetail }) {
  const { t } = useTranslation('admin');
  const formatDateTime = useFormatDateTime();
  const none = t('rightsRequests.none');
  return (
    <Descriptions column={1} bordered size="small">
      <Descriptions.Item label={t('rightsRequests.receivedAt')}>{formatDateTime(request.createdAt)}</Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.requestDate')}>{shownDay(request.requestDate)}</Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.fullName')}>{request.fullName}</Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.email')}>{request.email}</Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.account')}>{request.userName ?? t('rightsRequests.deletedAccount')}</Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.requestType')}>{t(`rightsRequests.type.${request.requestType}`)}</Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.representativeData')}>
        <span className="rights-requests__text">{request.representativeData ?? none}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.rights')}>
        <RightTags rights={request.rights} />
      </Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.requestDetails')}>
        <span className="rights-requests__text">{request.requestDetails ?? none}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('rightsRequests.documents')}>
        <DocumentList request={request} />
      </Descriptions.Item>
    </Descriptions>
  );
}

/** One request in a side panel: its texts and its documents to download. */
function RightsRequestDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const { data, error, isLoading } = useRightsRequestQuery(id);
  return (
    <Drawer open width={650} title={data ? t('rightsRequests.detailTitle', { name: data.fullName }) : t('rightsRequests.title')} onClose={onClose}>
      <ErrorAlert error={error} />
      {isLoading && <Skeleton active />}
      {data && <RequestDescription request={data} />}
    </Drawer>
  );
}

/**
 * The data-protection rights requests sent from the portal, newest first (Administrators): the
 * list, and each request with its identification documents in a side panel.
 */
export default function RightsRequestsPage() {
  const { t } = useTranslation('admin');
  const formatDateTime = useFormatDateTime();
  const list = useListState(RIGHTS_REQUESTS_LIST_KEY, { sort: { field: 'createdAt', direction: 'desc' } });
  const [state] = list;
  const requests = useRightsRequestsQuery(toListQuery(state));
  const [openId, setOpenId] = useState<string>();

  const columns: ColumnsType<RightsRequestSummary> = [
    { key: 'createdAt', title: t('rightsRequests.receivedAt'), sorter: true, render: (_, row) => formatDateTime(row.createdAt) },
    { key: 'requestDate', title: t('rightsRequests.requestDate'), sorter: true, render: (_, row) => shownDay(row.requestDate) },
    identifying({ key: 'fullName', dataIndex: 'fullName', title: t('rightsRequests.fullName'), sorter: true }),
    identifying({ key: 'email', dataIndex: 'email', title: t('rightsRequests.email'), sorter: true }),
    { key: 'requestType', title: t('rightsRequests.requestType'), render: (_, row) => t(`rightsRequests.type.${row.requestType}`) },
    { key: 'rights', title: t('rightsRequests.rights'), render: (_, row) => <RightTags rights={row.rights} /> },
    { key: 'fileCount', dataIndex: 'fileCount', title: t('rightsRequests.documents'), align: 'right' },
    {
      key: 'view',
      title: '',
      render: (_, row) => (
        <Button type="link" onClick={() => setOpenId(row.id)} aria-label={t('rightsRequests.viewOf', { name: row.fullName })}>
          {t('rightsRequests.view')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <ListPage<RightsRequestSummary> title={t('rightsRequests.title')} rowKey="id" columns={columns} {...listTableProps(list, requests)} />
      {openId && <RightsRequestDrawer id={openId} onClose={() => setOpenId(undefined)} />}
    </>
  );
}
