import type { Key } from 'react';
import type { TenantTreeNode } from './tenants-api';

/** Where a dragged tenant was let go, as antd's Tree reports it (`onDrop`'s info, reduced). */
export interface TreeDrop {
  /** The dragged tenant. */
  dragKey: string;
  /** The tenant it was dropped onto, or beside. */
  dropKey: string;
  /** Dropped in the gap between two tenants rather than onto one. */
  dropToGap: boolean;
  /** Where, relative to the target: -1 above it, 0 onto it, 1 below it. */
  relativePosition: number;
  /** The target is open and has children: a drop just below it lands as its first child. */
  targetOpenWithChildren: boolean;
}

/** A tenant move: the tenant and its new parent (null: a top-level tenant). */
export interface TenantMove {
  tenantId: string;
  newParentId: string | null;
}

/** What antd's Tree hands `onDrop` (the parts a move needs). */
export interface AntTreeDropInfo {
  node: { key: Key; pos: string; expanded: boolean; children?: unknown[] };
  dragNode: { key: Key };
  dropPosition: number;
  dropToGap: boolean;
}

/** antd's drop info as a {@link TreeDrop}: its `dropPosition` counts from the target's parent, the move's from the target. */
export function treeDropOf(info: AntTreeDropInfo): TreeDrop {
  const index = Number(info.node.pos.split('-').at(-1));
  return {
    dragKey: String(info.dragNode.key),
    dropKey: String(info.node.key),
    dropToGap: info.dropToGap,
    relativePosition: info.dropPosition - index,
    targetOpenWithChildren: info.node.expanded && (info.node.children?.length ?? 0) > 0,
  };
}

/** The ids from a top-level tenant down to `id` (both included); empty when it is not in `forest`. */
export function pathTo(forest: readonly TenantTreeNode[], id: string): string[] {
  for (const node of forest) {
    if (node.id === id) return [node.id];
    const below = pathTo(node.children, id);
    if (below.length) return [node.id, ...below];
  }
  return [];
}

/** The node `id` of `forest`, if it is there. */
export function findNode(forest: readonly TenantTreeNode[], id: string): TenantTreeNode | undefined {
  for (const node of forest) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** The parent of `id` in `forest`: null for a top-level tenant, undefined when it is not there. */
export function parentOf(forest: readonly TenantTreeNode[], id: string): string | null | undefined {
  const path = pathTo(forest, id);
  if (!path.length) return undefined;
  return path.length > 1 ? path[path.length - 2]! : null;
}

/**
 * The move a drop asks for: onto a tenant (or just below an open one with children) makes the
 * dragged tenant its child; between tenants makes it their sibling, so its new parent is the
 * target's parent (null at the top level). Undefined when nothing would change, or when the target
 * lies inside the dragged subtree (a tenant cannot go under itself).
 */
export function moveOfDrop(forest: readonly TenantTreeNode[], drop: TreeDrop): TenantMove | undefined {
  const dragged = findNode(forest, drop.dragKey);
  if (!dragged || drop.dragKey === drop.dropKey || findNode(dragged.children, drop.dropKey)) return undefined;
  const intoTarget = !drop.dropToGap || (drop.relativePosition === 1 && drop.targetOpenWithChildren);
  const newParentId = intoTarget ? drop.dropKey : parentOf(forest, drop.dropKey);
  if (newParentId === undefined || newParentId === parentOf(forest, drop.dragKey)) return undefined;
  return { tenantId: drop.dragKey, newParentId };
}

const byTitle = (a: TenantTreeNode, b: TenantTreeNode) => a.title.localeCompare(b.title);

function without(forest: readonly TenantTreeNode[], id: string): TenantTreeNode[] {
  return forest.filter((node) => node.id !== id).map((node) => ({ ...node, children: without(node.children, id) }));
}

function withChild(forest: readonly TenantTreeNode[], parentId: string, child: TenantTreeNode): TenantTreeNode[] {
  return forest.map((node) =>
    node.id === parentId ? { ...node, children: [...node.children, child].sort(byTitle) } : { ...node, children: withChild(node.children, parentId, child) },
  );
}

/** `forest` with `move` applied (titles ascending, as the server sorts them): what the tree shows while the move is confirmed. */
export function applyMove(forest: readonly TenantTreeNode[], move: TenantMove): TenantTreeNode[] {
  const moved = findNode(forest, move.tenantId);
  if (!moved) return [...forest];
  const rest = without(forest, move.tenantId);
  return move.newParentId === null ? [...rest, moved].sort(byTitle) : withChild(rest, move.newParentId, moved);
}
