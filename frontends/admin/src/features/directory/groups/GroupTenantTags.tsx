import Tag from 'antd/es/tag';
import type { GroupTenant } from '../api/groups-api';
import { useDirectoryTranslation } from '../use-directory-translation';

/** A group's tenants as tags, the Global entry (no id) apart in the global colour. */
export function GroupTenantTags({ tenants }: { tenants: GroupTenant[] }) {
  const { t } = useDirectoryTranslation();
  return (
    <>
      {tenants.map((tenant) =>
        tenant.id === null ? (
          <Tag key="global" color="gold">
            {t('common.global')}
          </Tag>
        ) : (
          <Tag key={tenant.id} color="blue">
            {tenant.title}
          </Tag>
        ),
      )}
    </>
  );
}
