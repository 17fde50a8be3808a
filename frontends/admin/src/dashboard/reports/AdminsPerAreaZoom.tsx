import Select from 'antd/es/select';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminsPerApplicationQuery, useAdminsPerAreaQuery, type AdminsPerArea } from '../../api/dashboard';
import { useTenantLookupQuery } from '../../features/directory/api/lookups-api';
import { ZoomedReport, type ReportSpec } from './ReportCard';

/** The spec's search debounce (600 ms). */
const SEARCH_DEBOUNCE_MS = 600;

/**
 * The zoomed administrators-per-area report, with its entity (tenant) and application filters.
 * No entity: the Global tenant's administrators; an entity: those whose Administrator role applies
 * there (granted there, inherited from a parent, or global).
 */
export function AdminsPerAreaZoom({ title, spec }: { title: string; spec: ReportSpec<AdminsPerArea> }) {
  const { t } = useTranslation('admin');
  const [tenant, setTenant] = useState<string>();
  const [application, setApplication] = useState<string>();
  const query = useAdminsPerAreaQuery({ tenant, application });

  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const tenants = useTenantLookupQuery(search);
  // The applications that have an Administrator role: the others could only give an empty chart.
  const applications = useAdminsPerApplicationQuery();

  const filters = (
    <>
      <Select<string>
        className="report-zoom__filter"
        aria-label={t('dashboard.reports.adminsPerArea.tenant')}
        placeholder={t('dashboard.reports.adminsPerArea.allTenants')}
        allowClear
        value={tenant}
        onChange={(value) => setTenant(value ?? undefined)}
        loading={tenants.isFetching}
        showSearch={{ filterOption: false, onSearch: setText }}
        options={(tenants.data?.items ?? []).map((item) => ({ value: item.id, label: item.areaName ? `${item.title} (${item.areaName})` : item.title }))}
      />
      <Select<string>
        className="report-zoom__filter"
        aria-label={t('dashboard.reports.adminsPerArea.application')}
        placeholder={t('dashboard.reports.adminsPerArea.allApplications')}
        allowClear
        value={application}
        onChange={(value) => setApplication(value ?? undefined)}
        loading={applications.isFetching}
        showSearch={{ optionFilterProp: 'label' }}
        options={(applications.data ?? []).map((item) => ({ value: item.applicationId, label: item.displayName }))}
      />
    </>
  );
  return <ZoomedReport title={title} spec={spec} query={query} filters={filters} />;
}
