import SearchOutlined from '@ant-design/icons/SearchOutlined';
import { ReadableTable, useMediaQuery } from '@gatehouse/frontend-shared';
import Input from 'antd/es/input/Input';
import type { TableProps } from 'antd/es/table';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useEffect, useState, type ReactNode } from 'react';
import type { ListResult } from '../../api/admin-api';
import { NARROW_TABLE_QUERY, SEARCH_DEBOUNCE_MS, TABLE_SIZE_STORAGE_KEY, type TableSize } from '../directory/components/DataTable';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { PAGE_SIZES, type ListStateHook } from '../directory/components/list-state';
import { useDirectoryTranslation } from '../directory/use-directory-translation';

/** The table size the user chose on the other lists (every list shares the preference). */
function preferredSize(): TableSize {
  try {
    const stored = localStorage.getItem(TABLE_SIZE_STORAGE_KEY);
    return stored === 'middle' || stored === 'small' ? stored : 'large';
  } catch {
    return 'large';
  }
}

export interface LogTableProps<T> {
  /** Names the table (and its search box) for assistive technologies. */
  label: string;
  /** A sortable column has `sorter: true` and the API's sort field as its `key`. */
  columns: ColumnsType<T>;
  list: ListStateHook;
  result: { data?: ListResult<T>; isFetching: boolean; error?: unknown };
  /** The search box's hint (the logs search user names). */
  searchPlaceholder: string;
  /** Filters shown after the search box. */
  filters?: ReactNode;
  /** Actions at the right of the toolbar (the exports). */
  toolbar?: ReactNode;
  /** What a row shows when opened (its metadata); rows it returns nothing for do not open. */
  details?: (row: T) => ReactNode;
}

/**
 * A log tab's table: the spec's shared table (server-side paging by 10, 25 or 50, a debounced
 * search, sorting by column headers, compact without search on narrow screens), whose rows open
 * onto their details.
 */
export function LogTable<T extends { id: string }>({ label, columns, list, result, searchPlaceholder, filters, toolbar, details }: LogTableProps<T>) {
  const { t } = useDirectoryTranslation();
  const [state, onStateChange] = list;
  const { data, isFetching, error } = result;
  const narrow = useMediaQuery(NARROW_TABLE_QUERY);
  const [searchText, setSearchText] = useState(state.search);

  useEffect(() => {
    if (searchText.trim() === state.search.trim()) return undefined;
    const timer = setTimeout(() => onStateChange({ search: searchText }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, state.search, onStateChange]);

  // A remembered page past the end (the filters now select fewer rows) shows the last page instead.
  const count = data?.count ?? 0;
  const emptyPage = !isFetching && data !== undefined && data.items.length === 0 && state.page > 1;
  useEffect(() => {
    if (emptyPage) onStateChange({ page: Math.max(1, Math.min(state.page - 1, Math.ceil(count / state.pageSize))) });
  }, [emptyPage, count, state.page, state.pageSize, onStateChange]);

  const sortedColumns = columns.map((column) =>
    column.sorter === true && column.key !== undefined
      ? {
          ...column,
          sortOrder: state.sort?.field === column.key ? (state.sort.direction === 'asc' ? ('ascend' as const) : ('descend' as const)) : null,
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
            aria-label={searchPlaceholder}
            placeholder={searchPlaceholder}
            prefix={<SearchOutlined aria-hidden />}
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        )}
        {filters}
        {toolbar ? <div className="directory-table__actions">{toolbar}</div> : null}
      </div>
      <ErrorAlert error={error} className="directory-table__error" />
      <ReadableTable<T>
        rowKey="id"
        columns={sortedColumns}
        dataSource={data?.items ?? []}
        loading={isFetching}
        size={narrow ? 'small' : preferredSize()}
        expandable={
          details
            ? {
                expandedRowRender: (row) => details(row),
                rowExpandable: (row) => details(row) !== null,
                // At the left with the columns that stay in view when the table scrolls sideways.
                fixed: 'left',
              }
            : undefined
        }
        pagination={{
          current: state.page,
          pageSize: state.pageSize,
          total: count,
          pageSizeOptions: [...PAGE_SIZES],
          showSizeChanger: true,
          showTotal: (total, [start, end]) => t('table.total', { start, end, total }),
        }}
        onChange={onChange}
      />
    </section>
  );
}
