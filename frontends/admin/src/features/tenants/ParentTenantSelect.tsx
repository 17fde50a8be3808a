import Select, { type SelectProps } from 'antd/es/select';
import { useEffect, useState } from 'react';
import { useTenantLookupQuery } from '../directory/api/lookups-api';
import { SEARCH_DEBOUNCE_MS } from '../directory/components/DataTable';

export interface ParentTenantSelectProps extends Pick<SelectProps<string>, 'id' | 'value' | 'onChange' | 'placeholder' | 'disabled' | 'aria-label' | 'className'> {
  /** The tenant whose parent is picked: it cannot be its own parent. */
  excludeId?: string;
  /** The parent set now, so that its title shows before any search finds it. */
  current?: { id: string; title: string } | null;
}

/** A parent tenant picked by searching the tenants (50 at a time); cleared, the tenant is a top-level one. */
export function ParentTenantSelect({ excludeId, current, ...props }: ParentTenantSelectProps) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { data, isFetching } = useTenantLookupQuery(search);
  const options = (data?.items ?? [])
    .filter((tenant) => tenant.id !== excludeId)
    .map((tenant) => ({ value: tenant.id, label: tenant.areaName ? `${tenant.title} (${tenant.areaName})` : tenant.title }));
  if (current && !options.some((option) => option.value === current.id)) options.unshift({ value: current.id, label: current.title });
  return (
    <Select<string>
      {...props}
      allowClear
      loading={isFetching}
      showSearch={{ filterOption: false, onSearch: setText }}
      options={options}
    />
  );
}
