import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import Select, { type SelectProps } from 'antd/es/select';
import { useEffect, useState } from 'react';
import { useGroupsQuery } from '../api/groups-api';
import { LOOKUP_LIMIT, useAreasQuery, useTenantLookupQuery } from '../api/lookups-api';
import { useUsersQuery, type Permission } from '../api/users-api';
import { useDirectoryTranslation } from '../use-directory-translation';
import { SEARCH_DEBOUNCE_MS } from './DataTable';
import type { ListStateHook } from './list-state';

/** What a form item hands its input, plus what a caller may set. */
type PickerProps = Pick<SelectProps<string>, 'id' | 'value' | 'onChange' | 'placeholder' | 'allowClear' | 'disabled' | 'className' | 'aria-label'>;

/** Every area, by name (the spec's lookups go up to 1000). */
export function AreaSelect(props: PickerProps) {
  const { data, isFetching } = useAreasQuery({ top: LOOKUP_LIMIT, orderBy: 'name asc' });
  return (
    <Select<string>
      {...props}
      loading={isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      options={(data?.items ?? []).map((area) => ({ value: area.id, label: area.name }))}
    />
  );
}

export interface AreaFilterProps {
  /** The list it filters (parameter `area`; empty: every area). */
  list: ListStateHook;
  label: string;
  /** Shown while no area is picked. */
  placeholder: string;
}

/** A list's filter by area, cleared back to every area. */
export function AreaFilter({ list: [state, setState], label, placeholder }: AreaFilterProps) {
  return (
    <AreaSelect
      className="directory-filter"
      aria-label={label}
      placeholder={placeholder}
      allowClear
      value={state.filters.area || undefined}
      onChange={(area) => setState({ filters: { ...state.filters, area: area ?? '' } })}
    />
  );
}

/** The interface languages, each named in itself. */
export function LanguageSelect(props: PickerProps) {
  return <Select<string> {...props} options={SUPPORTED_LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))} />;
}

/** The spec's owner question: "No (Reader)" or "Yes (Owner)". */
export function PermissionSelect(props: Omit<PickerProps, 'value' | 'onChange'> & Pick<SelectProps<Permission>, 'value' | 'onChange'>) {
  const { t } = useDirectoryTranslation();
  return (
    <Select<Permission>
      {...props}
      options={[
        { value: 'Reader', label: t('permission.reader') },
        { value: 'Owner', label: t('permission.owner') },
      ]}
    />
  );
}

/** The search typed in a lookup, handed on once the user pauses. */
function useDebouncedSearch(): [string, (text: string) => void] {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return [search, setText];
}

/** A user picked by searching the users list (25 at a time, by user name). */
export function UserSelect(props: PickerProps) {
  const [search, setSearch] = useDebouncedSearch();
  const { data, isFetching } = useUsersQuery({ $search: search || undefined, top: 25, orderBy: 'userName asc' });
  return (
    <Select<string>
      {...props}
      loading={isFetching}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      options={(data?.items ?? []).map((user) => ({
        value: user.id,
        label: [user.firstName, user.lastName].some(Boolean) ? `${user.userName} (${[user.firstName, user.lastName].filter(Boolean).join(' ')})` : user.userName,
      }))}
    />
  );
}

/** A group picked by searching the groups list. */
export function GroupSelect(props: PickerProps) {
  const [search, setSearch] = useDebouncedSearch();
  const { data, isFetching } = useGroupsQuery({ $search: search || undefined, top: 50 });
  return (
    <Select<string>
      {...props}
      loading={isFetching}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      options={(data?.items ?? []).map((group) => ({ value: group.id, label: group.name }))}
    />
  );
}

/** Stands for the Global tenant in a tenant picker, whose values are otherwise tenant ids. */
export const GLOBAL_OPTION = '__global__';

export interface TenantSelectProps extends PickerProps {
  /** Offers the Global option first (the spec keeps it for Administrators). */
  withGlobal: boolean;
}

/** A tenant picked by searching the tenants (50 at a time), with an optional Global entry. */
export function TenantSelect({ withGlobal, ...props }: TenantSelectProps) {
  const { t } = useDirectoryTranslation();
  const [search, setSearch] = useDebouncedSearch();
  const { data, isFetching } = useTenantLookupQuery(search);
  const tenants = (data?.items ?? []).map((tenant) => ({
    value: tenant.id,
    label: tenant.areaName ? `${tenant.title} (${tenant.areaName})` : tenant.title,
  }));
  return (
    <Select<string>
      {...props}
      loading={isFetching}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      options={withGlobal ? [{ value: GLOBAL_OPTION, label: t('common.global') }, ...tenants] : tenants}
    />
  );
}
