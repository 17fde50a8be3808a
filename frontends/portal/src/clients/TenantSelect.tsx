import Select from 'antd/es/select';
import { useEffect, useMemo, useState } from 'react';
import type { Page, TenantSearch } from './clients-api';

/** The tenant selector's page (spec: take 10, by title). */
export const TENANT_PAGE_SIZE = 10;
/** Tenants are the spec's "entities", whose search pickers wait 800 ms. */
export const TENANT_SEARCH_DEBOUNCE_MS = 800;

export interface TenantOption {
  id: string;
  title: string;
}

interface TenantQueryResult {
  data?: Page<TenantOption>;
  isFetching: boolean;
}

export interface TenantSelectProps {
  label: string;
  placeholder: string;
  value: TenantOption | undefined;
  onChange: (tenant: TenantOption | undefined) => void;
  /** The list call (the consultant's or the service manager's tenants). */
  useTenants: (search: TenantSearch) => TenantQueryResult;
  /** Picks the first tenant of the first page when none is chosen. */
  autoSelectFirst?: boolean;
}

/** The value typed, handed on once the user pauses. */
export function useDebounced(value: string, delayMs: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** A searchable tenant picker: ten tenants at a time by title, the search sent 800 ms after typing stops. */
export function TenantSelect({ label, placeholder, value, onChange, useTenants, autoSelectFirst }: TenantSelectProps) {
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), TENANT_SEARCH_DEBOUNCE_MS);
  const result = useTenants({ searchQuery: search || undefined, take: TENANT_PAGE_SIZE });
  const items = useMemo(() => result.data?.items ?? [], [result.data]);
  const first = items[0];

  useEffect(() => {
    if (autoSelectFirst && !value && !search && first) onChange(first);
  }, [autoSelectFirst, value, search, first, onChange]);

  // The chosen tenant stays listed while a search shows others.
  const options = [...(value && !items.some((item) => item.id === value.id) ? [value] : []), ...items].map((tenant) => ({ value: tenant.id, label: tenant.title }));

  return (
    <Select
      className="clients-tenant-select"
      showSearch={{ filterOption: false, onSearch: setText, searchValue: text }}
      aria-label={label}
      placeholder={placeholder}
      value={value?.id}
      loading={result.isFetching}
      options={options}
      onChange={(id: string) => {
        setText('');
        onChange([value, ...items].find((tenant) => tenant?.id === id));
      }}
    />
  );
}
