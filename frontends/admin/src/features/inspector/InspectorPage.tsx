import { ReadableTable, RoleTag, identifying, useFormatDateTime } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shell/PageHeader';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import { useInspectTokenMutation, type InspectedRoleGroup, type TokenInspection } from './inspector-api';
import './inspector.css';

const STATE_COLOURS: Record<TokenInspection['state'], string> = { active: 'green', expired: 'red', notYetValid: 'orange', unknown: 'default' };
const SIGNATURE_COLOURS: Record<TokenInspection['signature'], string> = { valid: 'green', invalid: 'red', unknownKey: 'red', notApplicable: 'default' };

function Summary({ result }: { result: TokenInspection }) {
  const { t } = useTranslation('admin');
  const formatDateTime = useFormatDateTime();
  const date = (value: string | null) => (value ? formatDateTime(value) : t('inspector.notSet'));
  return (
    <Descriptions column={1} bordered size="small">
      <Descriptions.Item label={t('inspector.kind')}>{t(`inspector.kinds.${result.kind}`)}</Descriptions.Item>
      <Descriptions.Item label={t('inspector.signature')}>
        <Tag color={SIGNATURE_COLOURS[result.signature]}>{t(`inspector.signatures.${result.signature}`)}</Tag>
      </Descriptions.Item>
      {result.issuedByThisProvider !== null && (
        <Descriptions.Item label={t('inspector.issuer')}>{t(result.issuedByThisProvider ? 'inspector.issuers.this' : 'inspector.issuers.other')}</Descriptions.Item>
      )}
      <Descriptions.Item label={t('inspector.state')}>
        <Tag color={STATE_COLOURS[result.state]}>{t(`inspector.states.${result.state}`)}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('inspector.issuedAt')}>{date(result.issuedAt)}</Descriptions.Item>
      <Descriptions.Item label={t('inspector.expiresAt')}>{date(result.expiresAt)}</Descriptions.Item>
    </Descriptions>
  );
}

function accountState(subject: NonNullable<TokenInspection['subject']>): 'active' | 'locked' | 'draft' | 'missing' {
  if (!subject.found) return 'missing';
  if (subject.locked) return 'locked';
  return subject.draft ? 'draft' : 'active';
}

/** Whose token it is, and what they may do now (only for a token the provider vouches for). */
function SubjectCard({ result }: { result: TokenInspection }) {
  const { t } = useTranslation('admin');
  const { subject } = result;
  const columns: ColumnsType<InspectedRoleGroup> = [
    identifying({ key: 'application', dataIndex: 'applicationName', title: t('inspector.application') }),
    { key: 'tenant', dataIndex: 'tenantName', title: t('inspector.tenant') },
    {
      key: 'roles',
      title: t('inspector.roleNames'),
      render: (_, group) =>
        group.roles.map((role) => <RoleTag key={role.roleId} application={group.applicationDisplayName} role={role.roleName} origins={role.origins} />),
    },
  ];
  return (
    <Card title={t('inspector.subject')} size="small">
      {subject ? (
        <>
          <Descriptions column={1} size="small">
            <Descriptions.Item label="sub">{subject.id}</Descriptions.Item>
            {subject.userName && <Descriptions.Item label={t('inspector.userName')}>{subject.userName}</Descriptions.Item>}
            {subject.displayName && <Descriptions.Item label={t('inspector.displayName')}>{subject.displayName}</Descriptions.Item>}
            <Descriptions.Item label={t('inspector.account')}>{t(`inspector.accountStates.${accountState(subject)}`)}</Descriptions.Item>
          </Descriptions>
          <h3 className="inspector__heading">{t('inspector.roles')}</h3>
          <ReadableTable<InspectedRoleGroup>
            size="small"
            rowKey={(group) => `${group.applicationId} ${group.tenantId}`}
            columns={columns}
            dataSource={result.effectiveRoles}
            pagination={false}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('inspector.noRoles')} /> }}
          />
        </>
      ) : (
        <p>{t('inspector.noSubject')}</p>
      )}
    </Card>
  );
}

function Json({ title, value }: { title: string; value: Record<string, unknown> | null }) {
  if (!value) return null;
  return (
    <Card title={title} size="small">
      <pre className="inspector__json">{JSON.stringify(value, null, 2)}</pre>
    </Card>
  );
}

/**
 * /admin/inspector (Administrator): a pasted token decoded (header, claims), its signature checked
 * against the provider's keys, its dates, and its subject's effective roles now. The token is
 * held in this page's state only: never in the URL, storage or a cache key.
 */
export default function InspectorPage() {
  const { t } = useTranslation('admin');
  const fieldId = useId();
  const [token, setToken] = useState('');
  const [missing, setMissing] = useState(false);
  const [inspect, { data, error, isLoading, reset }] = useInspectTokenMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!token.trim()) return setMissing(true);
    void inspect({ token: token.trim() });
  };
  const clear = () => {
    setToken('');
    setMissing(false);
    reset();
  };

  return (
    <>
      <PageHeader title={t('inspector.title')} breadcrumbs={[{ title: t('inspector.title') }]} />
      <form className="inspector__form" onSubmit={submit} noValidate>
        <p>{t('inspector.intro')}</p>
        <label htmlFor={fieldId}>{t('inspector.token')}</label>
        <Input.TextArea
          id={fieldId}
          value={token}
          rows={5}
          spellCheck={false}
          autoComplete="off"
          status={missing ? 'error' : undefined}
          aria-invalid={missing || undefined}
          onChange={(event) => {
            setToken(event.target.value);
            setMissing(false);
          }}
        />
        {missing && (
          <p role="alert" className="inspector__missing">
            {t('inspector.required')}
          </p>
        )}
        <div className="inspector__actions">
          <Button type="primary" htmlType="submit" loading={isLoading}>
            {t('inspector.inspect')}
          </Button>
          <Button onClick={clear}>{t('inspector.clear')}</Button>
        </div>
      </form>
      <ApiErrorAlert error={error} />
      {data && (
        <section className="inspector__result" aria-label={t('inspector.result')}>
          <Summary result={data} />
          <SubjectCard result={data} />
          <Json title={t('inspector.header')} value={data.header} />
          <Json title={t('inspector.claims')} value={data.claims} />
        </section>
      )}
    </>
  );
}
