import type { RoleOrigin } from '@gatehouse/contracts';
import Tag, { type TagProps } from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import './RoleTag.css';

/** The tag's colour by its first origin: own roles apart from those held through a group or inherited. */
export const ROLE_ORIGIN_COLORS: Record<RoleOrigin['via'], string | undefined> = { own: 'blue', group: 'purple', hierarchy: undefined };

export interface RoleTagProps {
  /** The application's display name. */
  application: string;
  role: string;
  /** The tenant it is held in, where the page lists several. */
  tenant?: string;
  /** How the identity holds the role (own first); none for a role not held, e.g. one asked for. */
  origins?: readonly RoleOrigin[];
  /** Overrides the origin's colour (e.g. a role of the Global tenant). */
  color?: string;
  closable?: TagProps['closable'];
  onClose?: TagProps['onClose'];
}

/** The words for one origin: in one's own name, through a group (named), inherited from a parent tenant (named). */
export function useRoleOriginText(): (origin: RoleOrigin) => string {
  const { t } = useTranslation();
  return (origin) => {
    if (origin.via === 'own') return t('common.roleOrigin.own');
    if (origin.via === 'group') return t('common.roleOrigin.group', { group: origin.groupName ?? '' });
    return origin.groupName
      ? t('common.roleOrigin.hierarchyViaGroup', { tenant: origin.tenantName ?? '', group: origin.groupName })
      : t('common.roleOrigin.hierarchy', { tenant: origin.tenantName ?? '' });
  };
}

/**
 * A role as both SPAs show it: the application's display name, then the role (and the tenant, where
 * several are listed), then every way the identity holds it (in its own name, through a group, by
 * hierarchy), when it holds it.
 */
export function RoleTag({ application, role, tenant, origins = [], color, closable, onClose }: RoleTagProps) {
  const originText = useRoleOriginText();
  const how = origins.map(originText).join(', ');
  return (
    <Tag
      className="role-tag"
      color={color ?? (origins[0] ? ROLE_ORIGIN_COLORS[origins[0].via] : undefined)}
      data-origins={origins.map((origin) => origin.via).join(' ') || undefined}
      closable={closable}
      onClose={onClose}
    >
      <span className="role-tag__name">{`${application}: ${role}`}</span>
      {tenant ? <span className="role-tag__tenant">{` (${tenant})`}</span> : null}
      {how ? <span className="role-tag__origins">{` · ${how}`}</span> : null}
    </Tag>
  );
}
