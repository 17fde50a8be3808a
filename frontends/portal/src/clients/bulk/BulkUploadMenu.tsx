import DownOutlined from '@ant-design/icons/DownOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { ApiError, useApiDependencies } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd/es/menu';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/auth-context';
import { BULK_OPTIONS, downloadTemplate, type BulkOption } from './bulk-api';
import { BulkUploadDialog } from './BulkUploadDialog';
import './bulk.css';

export interface BulkUploadMenuProps {
  /** The tenant the uploads are for (the page's tenant selector); uploading waits for one. */
  tenantId: string | undefined;
}

/**
 * My Clients' bulk-upload options as a dropdown button: for each option (access requests for
 * existing users; new users with their access requests) its label, the download of its template
 * and the upload of a filled one to the selected tenant, processed in the background.
 */
export function BulkUploadMenu({ tenantId }: BulkUploadMenuProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const dependencies = useApiDependencies(useAuth());
  const [uploading, setUploading] = useState<BulkOption>();
  const [error, setError] = useState<string>();

  const download = async (option: BulkOption) => {
    setError(undefined);
    try {
      await downloadTemplate(dependencies, option, common);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t('clientsBulk.templateError'));
    }
  };

  const items: MenuProps['items'] = BULK_OPTIONS.map((option) => ({
    type: 'group',
    key: option.kind,
    label: t(option.label),
    children: [
      { key: `${option.kind}-template`, label: t('clientsBulk.downloadTemplate'), onClick: () => void download(option) },
      {
        key: `${option.kind}-upload`,
        label: tenantId ? t('clientsBulk.upload') : `${t('clientsBulk.upload')} (${t('clientsBulk.selectTenant')})`,
        disabled: !tenantId,
        onClick: () => setUploading(option),
      },
    ],
  }));

  return (
    <div className="clients-bulk">
      <Dropdown trigger={['click']} menu={{ items }}>
        <Button icon={<UploadOutlined />}>
          {t('clientsBulk.button')} <DownOutlined aria-hidden />
        </Button>
      </Dropdown>
      {error ? <Alert className="clients-bulk__message" type="error" showIcon role="alert" title={error} closable onClose={() => setError(undefined)} /> : null}
      <BulkUploadDialog option={uploading} tenantId={tenantId} onClose={() => setUploading(undefined)} />
    </div>
  );
}

export default BulkUploadMenu;
