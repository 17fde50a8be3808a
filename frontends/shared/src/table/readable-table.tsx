import Table, { type TableProps } from 'antd/es/table';
import type { ColumnType, ColumnsType } from 'antd/es/table/interface';
import { Fragment, useCallback, useRef, useState } from 'react';
import './table.css';

/** The class of an identifying column's cells, header and body: the column that says which row it is. */
export const IDENTIFYING_COLUMN_CLASS = 'gh-identifying';

// Where an address or a name may wrap besides its spaces: before a dot, an at sign, an underscore,
// a plus or a slash (the browser already wraps after a hyphen). A word itself is never split.
const BREAK_BEFORE = /(?=[.@_+/])/;

/**
 * A name or an address that wraps at its natural joints (`maximiliane.schwarzenberger` /
 * `@verwaltung-` / `nordrhein.example`) rather than inside a word, as wide as its text up to a
 * cap and never narrower than its longest part, so a table gives it room instead of cutting it.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(BREAK_BEFORE);
  return (
    <span className="gh-identifying__text">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/**
 * Marks the column that identifies a row (a user name, an e-mail, a title): its text is never cut
 * nor ellipsed, it wraps between words and at the joints {@link BreakableText} gives it. A column
 * without a `render` shows its value through BreakableText; one with a `render` wraps its text in
 * it itself (inside its link, say).
 */
export function identifying<T>(column: NoInfer<ColumnType<T>>): ColumnType<T> {
  return {
    ...column,
    ellipsis: false,
    className: column.className ? `${column.className} ${IDENTIFYING_COLUMN_CLASS}` : IDENTIFYING_COLUMN_CLASS,
    render: column.render ?? ((value: unknown) => (value === null || value === undefined || value === '' ? null : <BreakableText text={String(value)} />)),
  };
}

/** A long free text (a description) in a cell: three lines at most, the whole of it in its tooltip. */
export function ClampedText({ text }: { text: string | null | undefined }) {
  return text ? (
    <span className="gh-clamped" title={text}>
      {text}
    </span>
  ) : null;
}

/** Whether {@link identifying} marked the column. */
export function isIdentifying(column: { className?: string }): boolean {
  return column.className?.split(' ').includes(IDENTIFYING_COLUMN_CLASS) ?? false;
}

/** From this width of its own on, a table keeps its columns pinned (`fixed`) at its right in view. */
export const PIN_MIN_WIDTH = 560;

/**
 * From this width on, the columns up to the first identifying one are pinned at the left too; a
 * narrower table would keep too little room between its pinned columns for the others to scroll.
 */
export const PIN_IDENTIFYING_MIN_WIDTH = 900;

/** The width of the element `ref` is given, kept up to date (the window's where nothing is laid out). */
function useWidth(): [number, (element: HTMLElement | null) => void] {
  const [width, setWidth] = useState(0);
  const observer = useRef<ResizeObserver>(undefined);
  // Called again with null when the element goes, which ends the observation.
  const ref = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    if (!element) return;
    setWidth(element.getBoundingClientRect().width);
    observer.current = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.current.observe(element);
  }, []);
  return [width || (typeof window === 'undefined' ? 0 : window.innerWidth), ref];
}

/** Pins the columns as a table `width` px wide can afford: see {@link ReadableTable}. */
export function pinnedColumns<T>(columns: ColumnsType<T>, width: number): ColumnsType<T> {
  if (width < PIN_MIN_WIDTH) return columns.map((column) => (column.fixed ? { ...column, fixed: undefined } : column));
  const last = width >= PIN_IDENTIFYING_MIN_WIDTH ? columns.findIndex(isIdentifying) : -1;
  return columns.map((column, index) => (index <= last && !column.fixed ? { ...column, fixed: 'left' as const } : column));
}

/**
 * An antd table laid out for reading, as every list of the product is: columns as wide as their
 * content needs, texts wrapping between words when the table is short of room and, when even that
 * is not enough, the table scrolling sideways inside itself (never the page). Wide enough, it keeps
 * the columns up to the first identifying one in view at its left and its `fixed: 'right'` ones
 * (row actions) at its right; narrow (a phone), it pins nothing, for pinned columns would cover the
 * very cells that say which row it is.
 */
export function ReadableTable<T extends object>({ columns = [], scroll, ...props }: TableProps<T>) {
  const [width, ref] = useWidth();
  return (
    <div ref={ref} className="gh-readable-table">
      <Table<T>
        {...props}
        columns={pinnedColumns(columns, width)}
        // An automatic layout: a fixed one shares the width out evenly and cuts what does not fit.
        tableLayout="auto"
        // As wide as the room there is, wider (and scrolling) only when the columns cannot shrink further.
        scroll={{ ...scroll, x: true }}
      />
    </div>
  );
}
