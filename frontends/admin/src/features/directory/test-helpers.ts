import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { stubApi } from '../../test-utils';
import type { Group } from './api/groups-api';
import type { UserRow } from './api/users-api';

// antd pages take a while to render in jsdom on a busy machine, the first one of a file most of
// all: waits get room enough not to flake. Each test file runs isolated, so this stays here.
configure({ asyncUtilTimeout: 5000 });

/** Per-test time for these pages (the first render of a file loads antd's styles). */
export const PAGE_TEST_TIMEOUT = 30_000;

type FetchMock = ReturnType<typeof stubApi>;

/** The requests a page sent to `METHOD /path` (query string aside), oldest first. */
export function sentTo(fetchMock: FetchMock, route: string): Request[] {
  const [method, path] = route.split(' ');
  return fetchMock.mock.calls
    .map(([input, init]) => (input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init)))
    .filter((request) => request.method === method && new URL(request.url).pathname === path);
}

/** The query parameters of each request to `METHOD /path`. */
export function queriesTo(fetchMock: FetchMock, route: string): Array<Record<string, string>> {
  return sentTo(fetchMock, route).map((request) => Object.fromEntries(new URL(request.url).searchParams));
}

/** The multipart bodies of uploads (plain fetch calls) to `METHOD /path`, as the page built them. */
export function formDataTo(fetchMock: FetchMock, route: string): FormData[] {
  const [method, path] = route.split(' ');
  return fetchMock.mock.calls
    .filter(([input, init]) => !(input instanceof Request) && init?.method === method && new URL(String(input), window.location.origin).pathname === path)
    .map(([, init]) => init!.body as FormData);
}

/** The JSON bodies sent to `METHOD /path`. */
export async function bodiesTo(fetchMock: FetchMock, route: string): Promise<unknown[]> {
  return Promise.all(sentTo(fetchMock, route).map((request) => request.clone().json() as Promise<unknown>));
}

export const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

/** The open dialog whose text includes `text`. */
export async function dialogWith(text: string): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen.queryAllByRole('dialog').find((element) => element.textContent?.includes(text));
    expect(dialog, `a dialog saying "${text}"`).toBeDefined();
    return dialog!;
  });
}

/** Opens an antd select (by its accessible name, inside `container`) and picks an option. */
export async function choose(label: string, option: string, container: HTMLElement = document.body): Promise<void> {
  const combobox = within(container).getByRole('combobox', { name: label });
  fireEvent.mouseDown(combobox);
  const item = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
      (element) => element.getAttribute('title') === option || element.textContent === option,
    );
    expect(found, `the option "${option}"`).toBeDefined();
    return found!;
  });
  fireEvent.click(item);
}

/** Table body rows (the measure row of antd aside). */
export function bodyRows(table: HTMLElement = document.body): HTMLElement[] {
  return [...table.querySelectorAll<HTMLElement>('tbody tr.ant-table-row')];
}

/** The spec's DD-MM-YYYY hh:mm:ss (24-hour clock) in the browser's time zone. */
export function localDateTime(iso: string): string {
  const date = new Date(iso);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getDate())}-${two(date.getMonth() + 1)}-${date.getFullYear()} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** A list answer. */
export function list<T>(items: T[], count = items.length) {
  return { items, count };
}

/** The areas lookup: North (the default) and South. */
export const AREAS = list([
  { id: 'a1', name: 'North', default: true, system: false },
  { id: 'a2', name: 'South', default: false, system: false },
]);

/** A row of the users list, in North, unlocked, complete; `overrides` say the rest. */
export function userRow(overrides: Partial<UserRow> & Pick<UserRow, 'id' | 'userName'>): UserRow {
  return {
    email: `${overrides.id}@mail.example`,
    firstName: 'First',
    lastName: 'Last',
    areaId: 'a1',
    areaName: 'North',
    validateScopes: false,
    locked: false,
    draft: false,
    modifiedOn: '2026-03-04T10:00:00Z',
    language: 'en',
    ...overrides,
  };
}

/** A group of North without tenants or members, not owned by the caller; `overrides` say the rest. */
export function groupRow(overrides: Partial<Group> & Pick<Group, 'id' | 'name'>): Group {
  return { description: null, areaId: 'a1', areaName: 'North', tenants: [], membersCount: 0, userIsOwner: false, ...overrides };
}
