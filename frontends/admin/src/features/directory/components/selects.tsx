import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import Select, { type SelectProps } from 'antd/es/select';
import { useEffect, useState } from 'react';
import { useGroupsQuery, type Group } from '../api/groups-api';
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

/** Groups a picker asks for at a time; scrolling to the end of the list asks for the next ones. */
export const GROUP_PAGE_SIZE = 50;
/** How close to the end of the list (in pixels) scrolling asks for more. */
const LOAD_MORE_MARGIN = 48;

/**
 * The groups a picker offers: searched by the server (by name, from the first), one page at a time,
 * a page more each time the list is scrolled to its end, up to the whole of the spec's 10,000.
 */
export function usePagedGroups(search: string) {
  // The page reached belongs to the search it was reached with: a new search starts again at the top.
  const [reached, setReached] = useState({ search, pages: 1 });
  const pages = reached.search === search ? reached.pages : 1;
  const page = useGroupsQuery({ $search: search || undefined, top: GROUP_PAGE_SIZE, skip: (pages - 1) * GROUP_PAGE_SIZE, orderBy: 'name asc' });
  const { currentData } = page;
  // Each page is added once, when its answer arrives (currentData answers the current search and page only).
  const [loaded, setLoaded] = useState<{ key: string; search: string; items: Group[] }>({ key: '', search, items: [] });
  const key = `${pages}|${search}`;
  if (currentData && loaded.key !== key) {
    const kept = loaded.search === search && pages > 1 ? loaded.items : [];
    const known = new Set(kept.map((group) => group.id));
    setLoaded({ key, search, items: [...kept, ...currentData.items.filter((group) => !known.has(group.id))] });
  }

  const items = loaded.search === search ? loaded.items : [];
  const total = currentData?.count ?? page.data?.count ?? 0;
  const hasMore = items.length < total;
  const loadMore = () => {
    if (hasMore && !page.isFetching && items.length >= pages * GROUP_PAGE_SIZE) setReached({ search, pages: pages + 1 });
  };
  return { items, loading: page.isFetching, hasMore, loadMore };
}

/** A group picked by searching the groups on the server; scrolling to the end of the list loads more. */
export function GroupSelect(props: PickerProps) {
  const [search, setSearch] = useDebouncedSearch();
  const { items, loading, loadMore } = usePagedGroups(search);
  return (
    <Select<string>
      {...props}
      loading={loading}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      onPopupScroll={(event) => {
        const list = event.currentTarget;
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - LOAD_MORE_MARGIN) loadMore();
      }}
      options={items.map((group) => ({ value: group.id, label: group.name }))}
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
