import { BreakableText, identifying } from '@gatehouse/frontend-shared';
import Switch from 'antd/es/switch';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link } from 'react-router';
import { breadcrumbState } from '../../shell/PageHeader';
import { errorMessage } from '../directory/components/errors';
import { useFeedback } from '../directory/components/feedback';
import { listTableProps, toListQuery, useListState } from '../directory/components/list-state';
import { ListPage } from '../directory/components/ListPage';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { usePermissionsTranslation } from '../permissions/use-permissions-translation';
import { useMfaTenantsQuery, useSetTwoModeAuthMutation, type MfaTenant } from './mfa-api';

/** Where the list's query is remembered (the pattern of the other lists' keys). */
export const MFA_LIST_KEY = 'IDENTITY-TWOMODEAUTH-LIST';

/**
 * /admin/twomodeauth: the tenants, each with a switch that requires (or stops requiring) a second
 * factor from its users, and one that accepts only phishing-resistant factors (passkeys or
 * Microsoft). Each change is confirmed first; while it is sent the switches show the new
 * positions, and a refusal puts them back and says why.
 */
export default function MfaConfigurationPage() {
  const { t } = usePermissionsTranslation();
  const { t: td } = useDirectoryTranslation();
  const feedback = useFeedback();
  const list = useListState(MFA_LIST_KEY, { sort: { field: 'title', direction: 'asc' } });
  const tenants = useMfaTenantsQuery(toListQuery(list[0]));
  const [setTwoModeAuth] = useSetTwoModeAuthMutation();
  // The tenants whose change is on its way.
  const [sending, setSending] = useState<ReadonlySet<string>>(new Set());

  /** Sends one change of a tenant's switches, the tenant's switches held while it is on its way. */
  const send = async (tenant: MfaTenant, change: { enable: boolean; phishingResistantOnly?: boolean }) => {
    setSending((previous) => new Set(previous).add(tenant.id));
    const result = await setTwoModeAuth({ id: tenant.id, ...change });
    setSending((previous) => {
      const next = new Set(previous);
      next.delete(tenant.id);
      return next;
    });
    if (result.error) feedback.error(errorMessage(result.error, td));
    else feedback.success(t('mfa.saved'));
  };

  const toggle = async (tenant: MfaTenant, enable: boolean) => {
    const text = t(enable ? 'mfa.enableText' : 'mfa.disableText');
    const confirmed = await feedback.confirm({
      title: t(enable ? 'mfa.enableConfirm' : 'mfa.disableConfirm', { title: tenant.title }),
      // Turning the second factor off takes phishing-resistant only with it: said before, not found after.
      content: !enable && tenant.phishingResistantOnly ? `${text} ${t('mfa.disableAlsoPhishing')}` : text,
      okText: t(enable ? 'mfa.enable' : 'mfa.disable'),
      danger: !enable,
    });
    if (confirmed) await send(tenant, { enable });
  };

  const togglePhishingResistant = async (tenant: MfaTenant, only: boolean) => {
    const confirmed = await feedback.confirm({
      title: t(only ? 'mfa.phishingEnableConfirm' : 'mfa.phishingDisableConfirm', { title: tenant.title }),
      content: t(only ? 'mfa.phishingEnableText' : 'mfa.phishingDisableText'),
      okText: t(only ? 'mfa.phishingEnable' : 'mfa.phishingDisable'),
      danger: !only,
    });
    // Phishing-resistant only is a kind of second factor: turning it on requires one.
    if (confirmed) await send(tenant, { enable: true, phishingResistantOnly: only });
  };

  const columns: ColumnsType<MfaTenant> = [
    identifying({
      key: 'title',
      title: t('mfa.tenant'),
      sorter: true,
      render: (_, tenant) => (
        <Link to={`/tenants/${encodeURIComponent(tenant.id)}`} state={breadcrumbState([{ title: t('mfa.title'), to: '/twomodeauth' }, { title: tenant.title }])}>
          <BreakableText text={tenant.title} />
        </Link>
      ),
    }),
    { key: 'areaName', dataIndex: 'areaName', title: t('mfa.area'), sorter: true },
    { key: 'parentTitle', dataIndex: 'parentTitle', title: t('mfa.parent'), sorter: true },
    {
      key: 'requiredTwoModeAuthentification',
      title: t('mfa.required'),
      align: 'center',
      width: 200,
      render: (_, tenant) => (
        <Switch
          aria-label={t('mfa.switchLabel', { title: tenant.title })}
          checked={tenant.requiredTwoModeAuthentification}
          loading={sending.has(tenant.id)}
          disabled={sending.has(tenant.id)}
          onChange={(enable) => void toggle(tenant, enable)}
        />
      ),
    },
    {
      key: 'phishingResistantOnly',
      title: t('mfa.phishingResistant'),
      align: 'center',
      width: 200,
      render: (_, tenant) => (
        <Switch
          aria-label={t('mfa.phishingSwitchLabel', { title: tenant.title })}
          checked={tenant.phishingResistantOnly}
          loading={sending.has(tenant.id)}
          disabled={sending.has(tenant.id)}
          onChange={(only) => void togglePhishingResistant(tenant, only)}
        />
      ),
    },
  ];

  return (
    <>
      <ListPage<MfaTenant> title={t('mfa.title')} rowKey="id" columns={columns} {...listTableProps(list, tenants)} />
      {feedback.holder}
    </>
  );
}
