import DownOutlined from '@ant-design/icons/DownOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import { useState } from 'react';
import { downloadFile } from '../../api/admin-api';
import { useCurrentUser } from '../../auth/use-current-user';
import { mayCall } from '../../auth/console-access';
import { BulkImportDialog } from '../directory/components/BulkImportDialog';
import { errorMessage } from '../directory/components/errors';
import type { Feedback } from '../directory/components/feedback';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { tenantIdentityUrls } from './permissions-api';
import { usePermissionsTranslation } from './use-permissions-translation';

const KINDS = {
  users: {
    endpoint: 'tenantIdentities.bulkInsertUsers',
    template: tenantIdentityUrls.usersTemplate,
    templateFile: 'UsersWithTenantTemplate.xlsx',
    upload: tenantIdentityUrls.bulkInsertUsers,
    downloadLabel: 'page.downloadUsersTemplate',
    uploadLabel: 'page.uploadUsers',
  },
  groups: {
    endpoint: 'tenantIdentities.bulkInsertGroups',
    template: tenantIdentityUrls.groupsTemplate,
    templateFile: 'GroupsWithTenantTemplate.xlsx',
    upload: tenantIdentityUrls.bulkInsertGroups,
    downloadLabel: 'page.downloadGroupsTemplate',
    uploadLabel: 'page.uploadGroups',
  },
} as const;

export interface IdentityBulkMenuProps {
  kind: keyof typeof KINDS;
  feedback: Feedback;
}

/**
 * The tab's bulk menu: download the import's template, and upload a filled one, imported in the
 * background (its result comes as a notification).
 * Shown only to those who may grant roles (the API refuses the others).
 */
export function IdentityBulkMenu({ kind, feedback }: IdentityBulkMenuProps) {
  const { t } = usePermissionsTranslation();
  const { t: td } = useDirectoryTranslation();
  const user = useCurrentUser();
  const [importing, setImporting] = useState(false);
  const config = KINDS[kind];
  if (!mayCall(user, config.endpoint)) return null;

  const download = () =>
    downloadFile(config.template, config.templateFile).catch((failure: unknown) => feedback.error(errorMessage(failure, td)));

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'upload', label: t(config.uploadLabel), onClick: () => setImporting(true) },
            { key: 'template', label: t(config.downloadLabel), onClick: () => void download() },
          ],
        }}
      >
        <Button icon={<UploadOutlined />}>
          {t('page.bulk')} <DownOutlined aria-hidden />
        </Button>
      </Dropdown>
      <BulkImportDialog open={importing} title={t(config.uploadLabel)} uploadUrl={config.upload} onClose={() => setImporting(false)} />
    </>
  );
}
