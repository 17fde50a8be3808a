import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ColumnsType } from 'antd/es/table/interface';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/create-i18n';
import { stubMatchMedia, stubResizeObserver } from '../testing/dom';
import { readHiddenColumns, useColumnChoice } from './column-choice';
import { BreakableText, identifying, isIdentifying, ReadableTable } from './readable-table';

interface Row {
  id: string;
  status: string;
  userName: string;
  firstName: string;
  area: string;
}

const LONG = 'maximiliane.schwarzenberger-obermeier@verwaltungsgesellschaft-nordrhein.example';
const ROWS: Row[] = [{ id: '1', status: 'Active', userName: LONG, firstName: 'Maximiliane', area: 'Verwaltung' }];
const COLUMNS: ColumnsType<Row> = [
  { key: 'status', dataIndex: 'status', title: 'Status' },
  identifying<Row>({ key: 'userName', dataIndex: 'userName', title: 'User name', ellipsis: true }),
  { key: 'firstName', dataIndex: 'firstName', title: 'First name' },
  { key: 'area', dataIndex: 'area', title: 'Area' },
  { key: 'actions', title: 'Actions', fixed: 'right', render: () => <button type="button">Lock</button> },
];

function UsersTable({ storageKey }: { storageKey?: string }) {
  const choice = useColumnChoice(storageKey, COLUMNS);
  return (
    <>
      {choice.chooser}
      <ReadableTable<Row> rowKey="id" dataSource={ROWS} pagination={false} columns={choice.columns} />
    </>
  );
}

function renderTable(storageKey?: string) {
  return render(
    <I18nextProvider i18n={createI18n({ language: 'de' })}>
      <UsersTable storageKey={storageKey} />
    </I18nextProvider>,
  );
}

const header = (name: string) => screen.getByRole('columnheader', { name });

beforeAll(() => {
  stubMatchMedia();
  stubResizeObserver();
});

afterEach(() => {
  localStorage.clear();
  window.innerWidth = 1024;
});

describe('BreakableText', () => {
  it('lets an address wrap before its dots and its at sign, never inside a word', () => {
    const { container } = render(<BreakableText text={LONG} />);

    expect(container).toHaveTextContent(LONG);
    const parts = [...container.firstElementChild!.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent);
    expect(parts).toEqual(['maximiliane', '.schwarzenberger-obermeier', '@verwaltungsgesellschaft-nordrhein', '.example']);
    expect(container.querySelectorAll('wbr')).toHaveLength(3);
  });

  it('leaves a plain name whole', () => {
    const { container } = render(<BreakableText text="Verwaltungsgesellschaft Nordrhein" />);
    expect(container.querySelectorAll('wbr')).toHaveLength(0);
  });
});

describe('identifying', () => {
  it('marks the column, never ellipsed, its value shown whole', () => {
    const column = identifying<Row>({ key: 'userName', dataIndex: 'userName', className: 'mine', ellipsis: true });
    expect(isIdentifying(column)).toBe(true);
    expect(column.className).toBe('mine gh-identifying');
    expect(column.ellipsis).toBe(false);
    expect(isIdentifying({ className: 'gh-identifying-not' })).toBe(false);
  });
});

describe('ReadableTable', () => {
  const fixedLeft = /ant-table-cell-fix-(left|start)/;
  const fixedRight = /ant-table-cell-fix-(right|end)/;

  it('lays the table out automatically, scrolling inside itself; wide, it pins the columns up to the identifying one left and the actions right', () => {
    window.innerWidth = 1366;
    renderTable();

    const table = document.querySelector<HTMLElement>('.ant-table-content table')!;
    expect(table.style.tableLayout).toBe('auto');
    expect(document.querySelector('.ant-table-content')).toHaveStyle({ overflowX: 'auto' });
    expect(document.querySelector('.ant-table-cell-ellipsis')).toBeNull();
    expect(header('Status').className).toMatch(fixedLeft);
    expect(header('User name').className).toMatch(fixedLeft);
    expect(header('First name').className).not.toMatch(fixedLeft);
    expect(header('Actions').className).toMatch(fixedRight);
    expect(screen.getByText(LONG).closest('td')).toHaveClass('gh-identifying');
  });

  it('pins only the actions in a table of middling width, where the identifying column pinned too would leave no room', () => {
    window.innerWidth = 700;
    renderTable();
    expect(header('User name').className).not.toMatch(fixedLeft);
    expect(header('Actions').className).toMatch(fixedRight);
  });

  it('pins nothing on a phone, where a pinned column would cover the user name', () => {
    window.innerWidth = 390;
    renderTable();
    expect(header('User name').className).not.toMatch(fixedLeft);
    expect(header('Actions').className).not.toMatch(fixedRight);
  });
});

describe('useColumnChoice', () => {
  it('offers every column but the identifying ones, in the interface language, and remembers the hidden ones', async () => {
    renderTable('TEST-COLUMNS');

    fireEvent.click(screen.getByRole('button', { name: 'Spalten' }));
    const choices = await screen.findByRole('group', { name: 'Angezeigte Spalten' });
    expect(within(choices).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual(['Status', 'First name', 'Area', 'Actions']);
    fireEvent.click(within(choices).getByRole('checkbox', { name: 'First name' }));

    expect(screen.queryByRole('columnheader', { name: 'First name' })).not.toBeInTheDocument();
    expect(header('User name')).toBeInTheDocument();
    expect(readHiddenColumns('TEST-COLUMNS')).toEqual(['firstName']);
  });

  it('shows every column when nothing was chosen, or what was stored makes no sense', () => {
    localStorage.setItem('TEST-COLUMNS', '{"firstName":true}');
    renderTable('TEST-COLUMNS');
    expect(header('First name')).toBeInTheDocument();
    expect(readHiddenColumns('TEST-COLUMNS')).toEqual([]);
    localStorage.setItem('TEST-COLUMNS', 'not json');
    expect(readHiddenColumns('TEST-COLUMNS')).toEqual([]);
  });

  it('always shows an identifying column, even stored as hidden', () => {
    localStorage.setItem('TEST-COLUMNS', '["userName", 7, "area"]');
    expect(readHiddenColumns('TEST-COLUMNS')).toEqual(['userName', 'area']);
    renderTable('TEST-COLUMNS');
    expect(header('User name')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Area' })).not.toBeInTheDocument();
  });

  it('offers no choice without a storage key', () => {
    renderTable();
    expect(screen.queryByRole('button', { name: 'Spalten' })).not.toBeInTheDocument();
  });
});
