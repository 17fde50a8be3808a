import Drawer from 'antd/es/drawer';
import Skeleton from 'antd/es/skeleton';
import Tree, { type DataNode as TreeDataNode } from 'antd/es/tree';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { tenantLinkState, tenantPath } from './crumbs';
import { useTenantHierarchyTreeQuery, type Tenant, type TenantTreeNode } from './tenants-api';
import { pathTo } from './tree-drop';
import { useTenantsTranslation, type TenantsT } from './use-tenants-translation';

/** The spec's width of the hierarchy drawer. */
export const HIERARCHY_DRAWER_WIDTH = 800;

function linkedNodes(nodes: readonly TenantTreeNode[], currentId: string, t: TenantsT): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: (
      <Link to={tenantPath(node.id)} state={tenantLinkState(t, node.title)} aria-current={node.id === currentId ? 'page' : undefined}>
        {node.title}
      </Link>
    ),
    children: linkedNodes(node.children, currentId, t),
  }));
}

/** The Hierarchy drawer of the tenants list: the tree the tenant belongs to, opened down to it and with it marked; every tenant links to its page. */
export function HierarchyDrawer({ tenant, onClose }: { tenant: Pick<Tenant, 'id' | 'title'>; onClose: () => void }) {
  const { t } = useTenantsTranslation();
  const { data, error, isLoading } = useTenantHierarchyTreeQuery(tenant.id);
  const treeData = useMemo(() => (data ? linkedNodes([data], tenant.id, t) : []), [data, tenant.id, t]);

  return (
    <Drawer open size={HIERARCHY_DRAWER_WIDTH} title={t('list.hierarchyOf', { title: tenant.title })} onClose={onClose}>
      <ErrorAlert error={error} />
      {isLoading ? <Skeleton active /> : null}
      {data ? (
        <Tree
          className="tenants-tree"
          aria-label={t('list.hierarchyOf', { title: tenant.title })}
          blockNode
          showLine
          treeData={treeData}
          defaultExpandedKeys={pathTo([data], tenant.id)}
          selectedKeys={[tenant.id]}
        />
      ) : null}
    </Drawer>
  );
}
