import { describe, expect, it } from 'vitest';
import type { TenantTreeNode } from './tenants-api';
import { applyMove, moveOfDrop, parentOf, pathTo, treeDropOf, type TreeDrop } from './tree-drop';

const node = (id: string, children: TenantTreeNode[] = []): TenantTreeNode => ({ id, title: id, areaId: 'a1', children });

// Acme ─┬─ Berlin ── Mitte
//       └─ Paris ─┬─ Louvre
//                 └─ Marais
const FOREST = [node('Acme', [node('Berlin', [node('Mitte')]), node('Paris', [node('Louvre'), node('Marais')])])];

const drop = (overrides: Partial<TreeDrop> & Pick<TreeDrop, 'dragKey' | 'dropKey'>): TreeDrop => ({
  dropToGap: false,
  relativePosition: 0,
  targetOpenWithChildren: false,
  ...overrides,
});

/** The tree as "parent: children" lines, to compare shapes. */
function shape(forest: readonly TenantTreeNode[], parent = '(top)'): string[] {
  return [`${parent}: ${forest.map((item) => item.id).join(', ')}`, ...forest.flatMap((item) => (item.children.length ? shape(item.children, item.id) : []))];
}

describe('tenant tree drops', () => {
  it('reads antd’s drop position relative to the target', () => {
    // antd counts dropPosition among the target's siblings: the target is the second (index 1).
    expect(
      treeDropOf({ node: { key: 'Paris', pos: '0-0-1', expanded: true, children: [{}] }, dragNode: { key: 'Mitte' }, dropPosition: 2, dropToGap: true }),
    ).toEqual({ dragKey: 'Mitte', dropKey: 'Paris', dropToGap: true, relativePosition: 1, targetOpenWithChildren: true });
    expect(treeDropOf({ node: { key: 'Louvre', pos: '0-0-1-0', expanded: false }, dragNode: { key: 'Mitte' }, dropPosition: -1, dropToGap: true })).toMatchObject({
      relativePosition: -1,
      targetOpenWithChildren: false,
    });
  });

  it('makes a tenant dropped onto another its child', () => {
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Mitte', dropKey: 'Paris' }))).toEqual({ tenantId: 'Mitte', newParentId: 'Paris' });
  });

  it('makes a tenant dropped between two others their sibling: its new parent is theirs', () => {
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Mitte', dropKey: 'Louvre', dropToGap: true, relativePosition: -1 }))).toEqual({
      tenantId: 'Mitte',
      newParentId: 'Paris',
    });
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Mitte', dropKey: 'Marais', dropToGap: true, relativePosition: 1 }))).toEqual({
      tenantId: 'Mitte',
      newParentId: 'Paris',
    });
  });

  it('makes a tenant dropped beside a top-level one a top-level tenant (no parent)', () => {
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Paris', dropKey: 'Acme', dropToGap: true, relativePosition: 1 }))).toEqual({
      tenantId: 'Paris',
      newParentId: null,
    });
  });

  it('makes a tenant dropped just below an open tenant with children its first child', () => {
    expect(
      moveOfDrop(FOREST, drop({ dragKey: 'Mitte', dropKey: 'Paris', dropToGap: true, relativePosition: 1, targetOpenWithChildren: true })),
    ).toEqual({ tenantId: 'Mitte', newParentId: 'Paris' });
  });

  it('asks for nothing when the parent would not change', () => {
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Louvre', dropKey: 'Paris' }))).toBeUndefined();
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Louvre', dropKey: 'Marais', dropToGap: true, relativePosition: 1 }))).toBeUndefined();
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Louvre', dropKey: 'Louvre' }))).toBeUndefined();
  });

  it('refuses to put a tenant under itself or one of its descendants', () => {
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Acme', dropKey: 'Mitte' }))).toBeUndefined();
    expect(moveOfDrop(FOREST, drop({ dragKey: 'Paris', dropKey: 'Louvre', dropToGap: true, relativePosition: 1 }))).toBeUndefined();
  });

  it('finds paths and parents', () => {
    expect(pathTo(FOREST, 'Marais')).toEqual(['Acme', 'Paris', 'Marais']);
    expect(pathTo(FOREST, 'Nowhere')).toEqual([]);
    expect(parentOf(FOREST, 'Berlin')).toBe('Acme');
    expect(parentOf(FOREST, 'Acme')).toBeNull();
    expect(parentOf(FOREST, 'Nowhere')).toBeUndefined();
  });

  it('shows a move in the tree, children by title, without touching the original', () => {
    const moved = applyMove(FOREST, { tenantId: 'Mitte', newParentId: 'Paris' });
    expect(shape(moved)).toEqual(['(top): Acme', 'Acme: Berlin, Paris', 'Paris: Louvre, Marais, Mitte']);
    expect(shape(applyMove(FOREST, { tenantId: 'Paris', newParentId: null }))).toEqual([
      '(top): Acme, Paris',
      'Acme: Berlin',
      'Berlin: Mitte',
      'Paris: Louvre, Marais',
    ]);
    expect(shape(FOREST)).toEqual(['(top): Acme', 'Acme: Berlin, Paris', 'Berlin: Mitte', 'Paris: Louvre, Marais']);
  });
});
