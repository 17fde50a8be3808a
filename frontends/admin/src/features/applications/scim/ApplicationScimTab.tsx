import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { BreakableText, identifying, ReadableTable, useFormatDateTime, useMediaQuery } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { NARROW_TABLE_QUERY } from '../../directory/components/DataTable';
import { ErrorAlert } from '../../directory/components/ErrorAlert';
import { errorMessage } from '../../directory/components/errors';
import { useFeedback, type Feedback } from '../../directory/components/feedback';
import { useDirectoryTranslation } from '../../directory/use-directory-translation';
import { CopyField } from './CopyField';
import { NewScimTokenModal } from './NewScimTokenModal';
import { scimBaseUrl, useDeleteScimTokenMutation, useScimTokensQuery, type IssuedScimToken, type ScimToken } from './scim-api';
import { ScimTokenDialog } from './ScimTokenDialog';
import { useScimTranslation } from './use-scim-translation';
import './scim.css';

/** Asks before revoking a token, naming it and its area, then revokes it. */
function useRevokeToken(applicationId: string, feedback: Feedback) {
  const { t } = useScimTranslation();
  const { t: common } = useDirectoryTranslation();
  const [remove] = useDeleteScimTokenMutation();
  return async (token: ScimToken) => {
    const confirmed = await feedback.confirm({
      title: t('tokens.revokeConfirm', { name: token.name }),
      content: t('tokens.revokeWarning', { area: token.areaName }),
      okText: t('tokens.revoke'),
      danger: true,
    });
    if (!confirmed) return;
    const result = await remove({ applicationId, tokenId: token.id });
    if (result.error) feedback.error(errorMessage(result.error, common));
    else feedback.success(t('tokens.revoked', { name: token.name }));
  };
}

/**
 * An application's SCIM provisioning tab (Administrator, God): what SCIM provisioning does, the
 * SCIM base URL, the application's tokens (never their values) with Revoke, and New token, whose
 * value is shown once.
 */
export function ApplicationScimTab({ applicationId }: { applicationId: string }) {
  const { t } = useScimTranslation();
  const { t: common } = useDirectoryTranslation();
  const formatDateTime = useFormatDateTime();
  const narrow = useMediaQuery(NARROW_TABLE_QUERY);
  const feedback = useFeedback();
  const { data, isFetching, error, fulfilledTimeStamp } = useScimTokensQuery(applicationId);
  const revoke = useRevokeToken(applicationId, feedback);
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<IssuedScimToken>();
  const [firstRender] = useState(Date.now);
  // Whether a token has expired is read against the moment the list was fetched.
  const now = fulfilledTimeStamp ?? firstRender;
  const none = common('common.none');

  const columns: ColumnsType<ScimToken> = [
    identifying({ key: 'name', title: t('tokens.name'), render: (_, token) => <BreakableText text={token.name} /> }),
    { key: 'areaName', dataIndex: 'areaName', title: t('tokens.area') },
    { key: 'hint', title: t('tokens.hint'), render: (_, token) => <code className="scim-hint">{token.hint}</code> },
    { key: 'createdByName', title: t('tokens.createdBy'), render: (_, token) => token.createdByName ?? none },
    { key: 'createdAt', title: t('tokens.createdAt'), render: (_, token) => formatDateTime(token.createdAt) },
    {
      key: 'expiresAt',
      title: t('tokens.expiresAt'),
      render: (_, token) =>
        token.expiresAt ? (
          <>
            {formatDateTime(token.expiresAt)} {new Date(token.expiresAt).getTime() <= now ? <Tag color="red">{t('tokens.expired')}</Tag> : null}
          </>
        ) : (
          t('tokens.never')
        ),
    },
    { key: 'lastUsedAt', title: t('tokens.lastUsedAt'), render: (_, token) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt) : t('tokens.never')) },
    {
      key: 'actions',
      title: common('common.actions'),
      render: (_, token) => (
        <Button type="text" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('tokens.revokeToken', { name: token.name })} onClick={() => void revoke(token)}>
          {t('tokens.revoke')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <div className="scim-intro">
        <p>{t('tab.intro')}</p>
        <p>{t('tab.reach')}</p>
      </div>
      <CopyField label={t('tab.baseUrl')} value={scimBaseUrl()} copyLabel={t('tab.copyUrl')} copied={t('copy.urlCopied')} feedback={feedback} />
      <section className="directory-table scim-tokens" aria-label={t('tab.tokens')}>
        <div className="directory-table__toolbar">
          <div className="directory-table__actions">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('tab.newToken')}
            </Button>
          </div>
        </div>
        <ErrorAlert error={error} className="directory-table__error" />
        <ReadableTable<ScimToken>
          rowKey="id"
          columns={columns}
          dataSource={data?.items ?? []}
          loading={isFetching}
          size={narrow ? 'small' : 'middle'}
          pagination={{ hideOnSinglePage: true, showTotal: (total, [start, end]) => common('table.total', { start, end, total }) }}
        />
      </section>
      {creating ? (
        <NewScimTokenModal
          applicationId={applicationId}
          onClose={() => setCreating(false)}
          onIssued={(token) => {
            setCreating(false);
            feedback.success(t('tokens.issued', { name: token.name }));
            setIssued(token);
          }}
        />
      ) : null}
      {issued ? <ScimTokenDialog token={issued} onClose={() => setIssued(undefined)} /> : null}
      {feedback.holder}
    </>
  );
}
