import EditOutlined from '@ant-design/icons/EditOutlined';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import { useState } from 'react';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { showFieldErrors } from '../directory/components/errors';
import type { Feedback } from '../directory/components/feedback';
import { AreaSelect } from '../directory/components/selects';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { moveErrorMessage } from './move-error';
import { ParentTenantSelect } from './ParentTenantSelect';
import { useChangeTenantParentMutation, useUpdateTenantMutation, type TenantChanges, type TenantDetail } from './tenants-api';
import { useTenantsTranslation } from './use-tenants-translation';

/** The fields of the General tab whose server errors show in place. */
const TENANT_FIELDS = ['title', 'areaId', 'taxNumber', 'viesNumber', 'groupAlias'] as const;

interface TenantFormValues {
  title: string;
  areaId: string;
  taxNumber?: string;
  viesNumber?: string;
  groupAlias?: string;
}

/** The form's values of a tenant as the server has it. */
export function formValuesOf(tenant: TenantDetail): TenantFormValues {
  return {
    title: tenant.title,
    areaId: tenant.areaId ?? '',
    taxNumber: tenant.taxNumber ?? '',
    viesNumber: tenant.viesNumber ?? '',
    groupAlias: tenant.groupAlias ?? '',
  };
}

/** What the tab sends: blanks as none. */
export function changesOf(values: TenantFormValues): TenantChanges {
  const text = (value: string | undefined) => value?.trim() || null;
  return {
    title: values.title.trim(),
    areaId: values.areaId,
    taxNumber: text(values.taxNumber),
    viesNumber: text(values.viesNumber),
    groupAlias: text(values.groupAlias),
  };
}

export interface TenantGeneralTabProps {
  tenant: TenantDetail;
  /** May edit the tenant and change its parent (Administrator or Manager). */
  editable: boolean;
  feedback: Feedback;
}

/**
 * The General tab: the tenant's properties, read-only until Edit (Cancel puts them back), and its
 * parent, changed through Change Parent Tenant after a confirmation (cancelled, the previous
 * parent stays).
 */
export function TenantGeneralTab({ tenant, editable, feedback }: TenantGeneralTabProps) {
  const { t } = useTenantsTranslation();
  const { t: td } = useDirectoryTranslation();
  const [form] = Form.useForm<TenantFormValues>();
  const [update, { isLoading: saving }] = useUpdateTenantMutation();
  const [changeParent, { isLoading: moving }] = useChangeTenantParentMutation();
  const [editing, setEditing] = useState(false);
  const [changingParent, setChangingParent] = useState(false);
  // The parent picked and awaiting confirmation (or the server's answer), while the tenant read is the one it was picked on.
  const [chosen, setChosen] = useState<{ base: string | null; parentId: string | null }>();
  const parentId = chosen?.base === tenant.parentId ? chosen.parentId : tenant.parentId;
  const [error, setError] = useState<unknown>();

  const save = async (values: TenantFormValues) => {
    setError(undefined);
    const result = await update({ id: tenant.id, changes: changesOf(values) });
    if (result.error) {
      if (!showFieldErrors(form, result.error, TENANT_FIELDS)) setError(result.error);
      return;
    }
    setEditing(false);
    feedback.success(t('detail.saved'));
  };

  const cancel = () => {
    form.resetFields();
    setError(undefined);
    setEditing(false);
  };

  const pickParent = async (value: string | undefined) => {
    const newParentId = value ?? null;
    if (newParentId === tenant.parentId) return;
    setError(undefined);
    setChosen({ base: tenant.parentId, parentId: newParentId });
    const confirmed = await feedback.confirm({ title: t('detail.changeParentConfirm'), content: t('detail.changeParentWarning') });
    if (!confirmed) {
      setChosen(undefined);
      return;
    }
    const result = await changeParent({ tenantId: tenant.id, newParentId });
    if (result.error) {
      setChosen(undefined);
      setError(new Error(moveErrorMessage(result.error, t, td)));
      return;
    }
    setChangingParent(false);
    feedback.success(t('detail.saved'));
  };

  return (
    <>
      <ErrorAlert error={error} explains403 className="directory-form-error" />
      <Form<TenantFormValues>
        form={form}
        name="tenant-general"
        layout="vertical"
        disabled={!editing}
        initialValues={formValuesOf(tenant)}
        onFinish={(values) => void save(values)}
      >
        <Form.Item name="title" label={t('form.title')} rules={[{ required: true, whitespace: true, message: t('form.titleRequired') }, { max: 200, message: t('form.tooLong', { max: 200 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item name="areaId" label={t('form.area')} rules={[{ required: true, message: t('form.areaRequired') }]}>
          <AreaSelect />
        </Form.Item>
        <Form.Item label={t('form.parent')} htmlFor="tenant-general_parent">
          <div className="tenants-parent">
            <ParentTenantSelect
              id="tenant-general_parent"
              className="tenants-parent__select"
              value={parentId ?? undefined}
              current={tenant.parentId && tenant.parentTitle ? { id: tenant.parentId, title: tenant.parentTitle } : null}
              excludeId={tenant.id}
              placeholder={t('form.noParent')}
              disabled={!changingParent || moving}
              onChange={(value) => void pickParent(value)}
            />
            {editable && !changingParent ? (
              // Outside the form's edit mode: the parent changes on its own, with its own confirmation.
              <Button disabled={false} onClick={() => setChangingParent(true)}>
                {t('detail.changeParent')}
              </Button>
            ) : null}
          </div>
        </Form.Item>
        <Form.Item name="taxNumber" label={t('form.taxNumber')} rules={[{ max: 50, message: t('form.tooLong', { max: 50 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item name="viesNumber" label={t('form.viesNumber')} rules={[{ max: 50, message: t('form.tooLong', { max: 50 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item name="groupAlias" label={t('form.groupAlias')} rules={[{ max: 200, message: t('form.tooLong', { max: 200 }) }]}>
          <Input />
        </Form.Item>
        <Form.Item label={t('form.creation')} htmlFor="tenant-general_creation">
          <Input id="tenant-general_creation" value={t(`creation.${tenant.auto}`)} disabled />
        </Form.Item>
        <Space size="large" wrap className="tenants-flags">
          <label className="tenants-flag">
            <Switch checked={tenant.isUserCustomized} disabled /> {t('form.customized')}
          </label>
          <label className="tenants-flag">
            <Switch checked={tenant.requiredTwoModeAuthentification} disabled /> {t('form.mfaRequired')}
          </label>
        </Space>
      </Form>
      {editable ? (
        <div className="tenants-actions">
          {editing ? (
            <>
              <Button type="primary" loading={saving} onClick={() => form.submit()}>
                {t('detail.save')}
              </Button>
              <Button onClick={cancel}>{t('detail.cancel')}</Button>
            </>
          ) : (
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
              {t('detail.edit')}
            </Button>
          )}
        </div>
      ) : null}
    </>
  );
}
