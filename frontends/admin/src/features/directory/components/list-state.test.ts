import { describe, expect, it } from 'vitest';
import { INITIAL_LIST_STATE, parseListState, toListQuery } from './list-state';

describe('parseListState', () => {
  it('keeps what is valid of a stored state and falls back field by field', () => {
    const stored = JSON.stringify({ search: 'ana', page: 0, pageSize: 30, sort: { field: 'email', direction: 'up' }, filters: { area: 'a1', locked: true } });

    expect(parseListState(stored)).toEqual({ search: 'ana', page: 1, pageSize: 10, sort: null, filters: { area: 'a1' } });
  });

  it('starts from the defaults when nothing usable is stored', () => {
    const defaults = { ...INITIAL_LIST_STATE, sort: { field: 'name', direction: 'asc' as const } };
    expect(parseListState(null, defaults)).toBe(defaults);
    expect(parseListState('{not json', defaults)).toBe(defaults);
    expect(parseListState('[1,2]', defaults)).toBe(defaults);
  });
});

describe('toListQuery', () => {
  it('turns a page, a sort and filters into the list contract, leaving empty values out', () => {
    expect(
      toListQuery({ search: '  lima ', page: 3, pageSize: 25, sort: { field: 'lastName', direction: 'desc' }, filters: { locked: 'true', area: '' } }),
    ).toEqual({ $search: 'lima', skip: 50, top: 25, orderBy: 'lastName desc', locked: 'true' });
    expect(toListQuery(INITIAL_LIST_STATE)).toEqual({ $search: undefined, skip: 0, top: 10, orderBy: undefined });
  });
});
