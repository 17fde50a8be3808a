import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Tree, { type DataNode as TreeDataNode, type TreeProps } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Feedback } from '../directory/components/feedback';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { tenantLinkState, tenantPath } from './crumbs';
import { moveErrorMessage } from './move-error';
import { useChangeTenantParentMutation, type TenantDetail, type TenantTreeNode } from './tenants-api';
import { applyMove, findNode, moveOfDrop, pathTo, treeDropOf, type TenantMove } from './tree-drop';
import { useTenantsTranslation } from './use-tenants-translation';

function treeDataOf(nodes: readonly TenantTreeNode[]): TreeDataNode[] {
  return nodes.map((node) => ({ key: node.id, title: node.title, children: treeDataOf(node.children) }));
}

export interface TenantHierarchyCardProps {
  tenant: Pick<TenantDetail, 'id' | 'title' | 'tree'>;
  /** May move tenants by drag and drop (Administrator or Manager). */
  draggable: boolean;
  feedback: Feedback;
}

/**
 * The left card of a tenant's page: the tree it belongs to, with it selected. A click opens
 * another tenant; a drop moves the dragged tenant (after confirmation), the tree showing the move
 * meanwhile and going back to what it was when the move is cancelled or refused.
 */
export function TenantHierarchyCard({ tenant, draggable, feedback }: TenantHierarchyCardProps) {
  const { t } = useTenantsTranslation();
  const { t: td } = useDirectoryTranslation();
  const navigate = useNavigate();
  const [changeParent] = useChangeTenantParentMutation();
  const serverForest = useMemo(() => (tenant.tree ? [tenant.tree] : []), [tenant.tree]);
  // The tree as a move awaiting confirmation leaves it, while the server's tree is still the one it was made on.
  const [pending, setPending] = useState<{ base: TenantTreeNode[]; forest: TenantTreeNode[] }>();
  const forest = pending?.base === serverForest ? pending.forest : serverForest;
  const [expanded, setExpanded] = useState<string[]>(() => pathTo(serverForest, tenant.id));
  const [error, setError] = useState<string>();
  const treeData = useMemo(() => treeDataOf(forest), [forest]);

  const open = (id: string) => {
    const node = findNode(forest, id);
    if (node && id !== tenant.id) void navigate(tenantPath(id), { state: tenantLinkState(t, node.title) });
  };

  const move = async (change: TenantMove) => {
    setError(undefined);
    setPending({ base: serverForest, forest: applyMove(forest, change) });
    const { newParentId } = change;
    if (newParentId !== null) setExpanded((keys) => (keys.includes(newParentId) ? keys : [...keys, newParentId]));
    const confirmed = await feedback.confirm({ title: t('detail.changeParentConfirm'), content: t('detail.changeParentWarning') });
    if (!confirmed) {
      setPending(undefined);
      return;
    }
    const result = await changeParent(change);
    if (result.error) {
      setPending(undefined);
      setError(moveErrorMessage(result.error, t, td));
      return;
    }
    // The server's tree comes back with the move; the moved tenant is the one shown.
    feedback.success(t('detail.saved'));
    open(change.tenantId);
  };

  const onDrop: TreeProps['onDrop'] = (info) => {
    const change = moveOfDrop(forest, treeDropOf(info));
    if (change) void move(change);
  };

  return (
    <Card title={t('detail.hierarchy')}>
      {draggable ? <p className="tenants-help">{t('detail.hierarchyHelp')}</p> : null}
      {error ? (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: () => setError(undefined) }}
          className="directory-form-error"
          title={td('common.errorTitle')}
          description={error}
        />
      ) : null}
      <Tree
        className="tenants-tree"
        aria-label={t('detail.hierarchy')}
        blockNode
        showLine
        draggable={draggable ? { icon: false } : false}
        treeData={treeData}
        selectedKeys={[tenant.id]}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys.map(String))}
        onSelect={(_keys, info) => open(String(info.node.key))}
        onDrop={onDrop}
      />
    </Card>
  );
}
