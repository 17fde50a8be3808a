import { identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteColumn } from '../directory/components/columns';
import { errorMessage } from '../directory/components/errors';
import { useFeedback } from '../directory/components/feedback';
import { listTableProps, type ListQueryResult, type ListStateHook } from '../directory/components/list-state';
import { ListPage } from '../directory/components/ListPage';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { relativeTime, shownDay } from './pat-format';
import { useDeletePatMutation, type PersonalAccessToken } from './pats-api';
import './pats.css';

/** A token and the moment its times are read against (when the list was fetched). */
interface TimedToken {
  token: PersonalAccessToken;
  now: number;
}

function Expiry({ token, now }: TimedToken) {
  const { t } = useTranslation('admin');
  if (!token.expiresAt) return <>{t('pats.never')}</>;
  const expired = new Date(token.expiresAt).getTime() <= now;
  return (
    <>
      {shownDay(token.expiresAt)} {expired ? <Tag color="red">{t('pats.expired')}</Tag> : null}
    </>
  );
}

function LastUse({ token, now }: TimedToken) {
  const { t, i18n } = useTranslation('admin');
  const formatDateTime = useFormatDateTime();
  if (!token.lastDateOfUse) return <>{t('pats.never')}</>;
  return (
    <span className="pats__last-use">
      {formatDateTime(token.lastDateOfUse)}
      <span className="pats__relative">{relativeTime(token.lastDateOfUse, i18n.language, now)}</span>
    </span>
  );
}

/** Deletes a token once the user confirms, then says so. */
function useDeletePat() {
  const { t } = useTranslation('admin');
  const { t: directoryT } = useDirectoryTranslation();
  const feedback = useFeedback();
  const [deletePat] = useDeletePatMutation();
  const remove = async (token: PersonalAccessToken) => {
    const confirmed = await feedback.confirm({
      title: t('pats.deleteConfirm', { name: token.name }),
      content: t('pats.deleteConsequence'),
      okText: t('common.delete'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await deletePat(token.id);
    if (result.error) feedback.error(errorMessage(result.error, directoryT));
    else feedback.success(t('pats.deleted', { name: token.name }));
  };
  return { remove, holder: feedback.holder };
}

export interface PatsTableProps {
  title: string;
  list: ListStateHook;
  /** The list's query (its answer's time is what "3 days ago" counts from). */
  tokens: ListQueryResult<PersonalAccessToken> & { fulfilledTimeStamp?: number };
  /** Shows whose each token is (every user's tokens). */
  withOwner?: boolean;
  filters?: ReactNode;
  toolbar?: ReactNode;
}

/** A page that lists tokens (never their values) and deletes them after a confirmation. */
export function PatsTable({ title, list, tokens, withOwner = false, filters, toolbar }: PatsTableProps) {
  const { t } = useTranslation('admin');
  const { t: directoryT } = useDirectoryTranslation();
  const formatDateTime = useFormatDateTime();
  const { remove, holder } = useDeletePat();
  const [firstRender] = useState(Date.now);
  const now = tokens.fulfilledTimeStamp ?? firstRender;

  const columns: ColumnsType<PersonalAccessToken> = [
    identifying({ key: 'name', dataIndex: 'name', title: t('pats.name'), sorter: true }),
    { key: 'applicationName', title: t('pats.application'), sorter: true, render: (_, token) => token.applicationDisplayName },
    { key: 'hint', title: t('pats.token'), render: (_, token) => <code className="pats__hint">{token.hint}</code> },
    ...(withOwner ? [{ key: 'createByName', dataIndex: 'createByName', title: t('pats.owner'), sorter: true }] : []),
    { key: 'expiresAt', title: t('pats.expiresAt'), sorter: true, render: (_, token) => <Expiry token={token} now={now} /> },
    { key: 'lastDateOfUse', title: t('pats.lastUse'), sorter: true, render: (_, token) => <LastUse token={token} now={now} /> },
    { key: 'createdAt', title: t('pats.createdAt'), sorter: true, render: (_, token) => formatDateTime(token.createdAt) },
    deleteColumn(directoryT, (token) => t('pats.deleteToken', { name: token.name }), (token) => void remove(token)),
  ];

  return (
    <>
      <ListPage<PersonalAccessToken> title={title} rowKey="id" columns={columns} {...listTableProps(list, tokens)} filters={filters} toolbar={toolbar} />
      {holder}
    </>
  );
}
