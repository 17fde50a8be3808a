import ColumnHeightOutlined from '@ant-design/icons/ColumnHeightOutlined';
import SearchOutlined from '@ant-design/icons/SearchOutlined';
import { ReadableTable, useColumnChoice, useMediaQuery } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Input from 'antd/es/input/Input';
import type { TableProps } from 'antd/es/table';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useEffect, useState, type Key, type ReactNode } from 'react';
import type { ListResult } from '../../../api/admin-api';
import { useDirectoryTranslation } from '../use-directory-translation';
import { ErrorAlert } from './ErrorAlert';
import { PAGE_SIZES, type ListState } from './list-state';
import './directory.css';

/** The spec's breakpoint: below 480 px wide, tables are compact and lose their search box. */
export const NARROW_TABLE_QUERY = '(max-width: 479.98px)';

/** The spec's search debounce. */
export const SEARCH_DEBOUNCE_MS = 600;

export type TableSize = 'large' | 'middle' | 'small';
const TABLE_SIZES: readonly TableSize[] = ['large', 'middle', 'small'];

/** Where the table size preference is kept (every list shares it). */
export const TABLE_SIZE_STORAGE_KEY = 'IDENTITY-TABLE-SIZE';

function readTableSize(): TableSize {
  try {
    const stored = localStorage.getItem(TABLE_SIZE_STORAGE_KEY);
    return TABLE_SIZES.find((size) => size === stored) ?? 'large';
  } catch {
    return 'large';
  }
}

function useTableSize(): [TableSize, (size: TableSize) => void] {
  const [size, setSize] = useState(readTableSize);
  const choose = (next: TableSize) => {
    setSize(next);
    try {
      localStorage.setItem(TABLE_SIZE_STORAGE_KEY, next);
    } catch {
      // A blocked storage only costs the preference on the next visit.
    }
  };
  return [size, choose];
}

export interface DataTableProps<T> {
  /** Names the table (and its search box) for assistive technologies. */
  label: string;
  /** A sortable column has `sorter: true` and the API's sort field as its `key`. */
  columns: ColumnsType<T>;
  rowKey: keyof T & string;
  data: ListResult<T> | undefined;
  loading: boolean;
  error?: unknown;
  state: ListState;
  onStateChange: (change: Partial<ListState>) => void;
  /** Filters shown after the search box. */
  filters?: ReactNode;
  /** Actions at the right of the toolbar. */
  toolbar?: ReactNode;
  /**
   * Where the user's choice of columns is remembered; given, the toolbar offers the choice (the
   * lists with many columns). See `useColumnChoice`.
   */
  columnsStorageKey?: string;
  /** Row checkboxes; the selected keys are the caller's. A row `selectable` refuses has its box disabled. */
  selection?: { selectedKeys: Key[]; onChange: (keys: Key[]) => void; selectable?: (row: T) => boolean };
}

/**
 * The spec's shared table: server-side paging (10, 25 or 50 rows), a debounced search, sorting by
 * column headers, a size preference, and a compact layout without search on narrow screens. Its
 * identifying column (marked with `identifying`) is never cut: the table wraps texts and then
 * scrolls sideways inside itself, that column staying in view at its left.
 */
export function DataTable<T extends object>({
  label,
  columns,
  rowKey,
  data,
  loading,
  error,
  state,
  onStateChange,
  filters,
  toolbar,
  selection,
  columnsStorageKey,
}: DataTableProps<T>) {
  const { t } = useDirectoryTranslation();
  const narrow = useMediaQuery(NARROW_TABLE_QUERY);
  const [preferredSize, setPreferredSize] = useTableSize();
  const [searchText, setSearchText] = useState(state.search);

  useEffect(() => {
    if (searchText.trim() === state.search.trim()) return undefined;
    const timer = setTimeout(() => onStateChange({ search: searchText }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, state.search, onStateChange]);

  // A page past the end (rows deleted, a remembered page of a list that has shrunk) shows the
  // last page that still has rows instead of an empty table.
  const count = data?.count ?? 0;
  const emptyPage = !loading && data !== undefined && data.items.length === 0 && state.page > 1;
  useEffect(() => {
    if (emptyPage) onStateChange({ page: Math.max(1, Math.min(state.page - 1, Math.ceil(count / state.pageSize))) });
  }, [emptyPage, count, state.page, state.pageSize, onStateChange]);

  const choice = useColumnChoice(columnsStorageKey, columns);
  const sortedColumns = choice.columns.map((column) =>
    column.sorter === true && column.key !== undefined
      ? {
          ...column,
          sortOrder:
            state.sort?.field === column.key ? (state.sort.direction === 'asc' ? ('ascend' as const) : ('descend' as const)) : null,
        }
      : column,
  );

  const onChange: TableProps<T>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const single = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
      const field = single?.columnKey ?? single?.field;
      onStateChange({
        sort: single?.order && field !== undefined ? { field: String(field), direction: single.order === 'ascend' ? 'asc' : 'desc' } : null,
      });
    } else if (extra.action === 'paginate') {
      if (pagination.pageSize !== undefined && pagination.pageSize !== state.pageSize) onStateChange({ pageSize: pagination.pageSize });
      else if (pagination.current !== undefined) onStateChange({ page: pagination.current });
    }
  };

  return (
    <section className="directory-table" aria-label={label}>
      <div className="directory-table__toolbar">
        {narrow ? null : (
          <Input
            className="directory-table__search"
            type="search"
            allowClear
            aria-label={t('table.search')}
            placeholder={t('table.search')}
            prefix={<SearchOutlined aria-hidden />}
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        )}
        {filters}
        <div className="directory-table__actions">
          {toolbar}
          {choice.chooser}
          {narrow ? null : (
            <Dropdown
              trigger={['click']}
              menu={{
                selectable: true,
                selectedKeys: [preferredSize],
                items: TABLE_SIZES.map((size) => ({ key: size, label: t(`table.${size}`) })),
                onClick: ({ key }) => setPreferredSize(key as TableSize),
              }}
            >
              <Button icon={<ColumnHeightOutlined />} aria-label={t('table.density')} title={t('table.density')} />
            </Dropdown>
          )}
        </div>
      </div>
      <ErrorAlert error={error} className="directory-table__error" />
      <ReadableTable<T>
        rowKey={rowKey}
        columns={sortedColumns}
        dataSource={data?.items ?? []}
        loading={loading}
        size={narrow ? 'small' : preferredSize}
        rowSelection={
          selection
            ? {
                selectedRowKeys: selection.selectedKeys,
                onChange: (keys) => selection.onChange(keys),
                preserveSelectedRowKeys: false,
                getCheckboxProps: (row) => ({ disabled: selection.selectable ? !selection.selectable(row) : false }),
              }
            : undefined
        }
        pagination={{
          current: state.page,
          pageSize: state.pageSize,
          total: count,
          pageSizeOptions: [...PAGE_SIZES],
          showSizeChanger: true,
          showTotal: (total, [start, end]) => t(data?.countEstimated ? 'table.totalEstimated' : 'table.total', { start, end, total }),
        }}
        onChange={onChange}
      />
    </section>
  );
}
