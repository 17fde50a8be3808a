import SettingOutlined from '@ant-design/icons/SettingOutlined';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Popover from 'antd/es/popover';
import type { ColumnsType } from 'antd/es/table/interface';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isIdentifying } from './readable-table';
import './table.css';

/** The keys of the columns hidden under `storageKey`, kept only as far as they still make sense. */
export function readHiddenColumns(storageKey: string, storage: Storage | undefined = localStorageOrNothing()): string[] {
  try {
    const value: unknown = JSON.parse(storage?.getItem(storageKey) ?? '[]');
    return Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

function localStorageOrNothing(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

const keyOf = (column: { key?: unknown }) => (column.key === undefined || column.key === null ? undefined : String(column.key));

export interface ColumnChoice<T> {
  /** The columns to show: all but those the user hid; the identifying ones always. */
  columns: ColumnsType<T>;
  /** The button and its list of columns to tick; null without a storage key. */
  chooser: ReactNode;
}

/**
 * The user's choice of a list's columns, remembered in this browser under `storageKey` (the
 * hidden ones are kept, so a column added later shows). The identifying columns cannot be hidden.
 * Without a key, every column shows and there is nothing to choose.
 */
export function useColumnChoice<T>(storageKey: string | undefined, columns: ColumnsType<T>): ColumnChoice<T> {
  const { t } = useTranslation();
  const [hidden, setHidden] = useState(() => (storageKey ? readHiddenColumns(storageKey) : []));
  if (!storageKey) return { columns, chooser: null };

  const choosable = columns.filter((column) => keyOf(column) !== undefined && !isIdentifying(column));
  const shown = (column: (typeof columns)[number]) => isIdentifying(column) || !hidden.includes(keyOf(column) ?? '');
  const choose = (shownKeys: string[]) => {
    const next = choosable.map((column) => keyOf(column)!).filter((key) => !shownKeys.includes(key));
    setHidden(next);
    try {
      localStorageOrNothing()?.setItem(storageKey, JSON.stringify(next));
    } catch {
      // A full or blocked storage only costs the choice on the next visit.
    }
  };

  const chooser = (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('common.table.columnsShown')}
      content={
        <div role="group" aria-label={t('common.table.columnsShown')}>
          <Checkbox.Group<string>
            className="gh-column-chooser"
            value={choosable.filter(shown).map((column) => keyOf(column)!)}
            onChange={choose}
            options={choosable.map((column) => ({
              value: keyOf(column)!,
              label: typeof column.title === 'string' ? column.title : keyOf(column)!,
            }))}
          />
        </div>
      }
    >
      <Button icon={<SettingOutlined aria-hidden />} aria-label={t('common.table.columns')} title={t('common.table.columns')} />
    </Popover>
  );
  return { columns: columns.filter(shown), chooser };
}
