import CloseOutlined from '@ant-design/icons/CloseOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { OWN_ROLE_ORIGIN, type RoleOrigin, type ServiceManagerRoleReason } from '@gatehouse/contracts';
import { RoleTag } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The role list's height before it scrolls (spec 9). */
export const ROLE_LIST_MAX_HEIGHT = 420;

export interface EditableRole {
  roleId: string;
  roleName: string;
  held: 'Own' | 'ByHierarchy' | 'Both' | null;
  /** False when the caller may not change it: shown, never sent. */
  editable: boolean;
  /** Why the caller may not change it, when the API says so. */
  reason?: ServiceManagerRoleReason | null;
  /** How the identity holds it, when the API says so. */
  origins?: readonly RoleOrigin[];
}

/** How the identity holds the role: the API's origins, else (held in its own name) its own name. */
const originsOf = (role: EditableRole): readonly RoleOrigin[] => role.origins ?? (role.held === 'Own' || role.held === 'Both' ? [OWN_ROLE_ORIGIN] : []);

export interface PermissionApplication {
  applicationId: string;
  applicationName: string;
  roles: EditableRole[];
}

/** The roles the identity holds on its own (and may change): the set sent back. */
export function ownRoleIds(applications: readonly PermissionApplication[]): string[] {
  return applications.flatMap((app) => app.roles.filter((role) => role.editable && (role.held === 'Own' || role.held === 'Both')).map((role) => role.roleId));
}

export interface PermissionEditorProps {
  applications: readonly PermissionApplication[];
  /** The own roles chosen (ids). */
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  /** Told when a role is being added (picked but not confirmed): saving waits for it. */
  onAddingChange: (adding: boolean) => void;
}

/**
 * The roles of the identity by application, each with how it is held: those the caller may not
 * change shown with the reason, the others removable; a role added by picking its application and
 * the role, then confirming.
 */
export function PermissionEditor({ applications, selected, onChange, onAddingChange }: PermissionEditorProps) {
  const { t } = useTranslation('portal');
  const [adding, setAdding] = useState(false);
  const [appId, setAppId] = useState<string>();
  const [roleId, setRoleId] = useState<string>();

  const startAdding = (value: boolean) => {
    setAdding(value);
    setAppId(undefined);
    setRoleId(undefined);
    onAddingChange(value);
  };
  const confirm = () => {
    if (roleId) onChange([...selected, roleId]);
    startAdding(false);
  };

  const locked = (role: EditableRole) => !role.editable && role.held !== null;
  // Without the API's reason, a role held but not changeable is one held by hierarchy.
  const why = (role: EditableRole) => (role.reason ? t(`clients.roles.reasons.${role.reason}`) : t('clients.roles.inherited'));
  const shown = applications
    .map((app) => ({ ...app, roles: app.roles.filter((role) => locked(role) || selected.includes(role.roleId)) }))
    .filter((app) => app.roles.length > 0);
  const addable = (app: PermissionApplication) => app.roles.filter((role) => role.editable && !selected.includes(role.roleId));
  const appOptions = applications.filter((app) => addable(app).length > 0).map((app) => ({ value: app.applicationId, label: app.applicationName }));
  const roleOptions = addable(applications.find((app) => app.applicationId === appId) ?? { applicationId: '', applicationName: '', roles: [] }).map((role) => ({
    value: role.roleId,
    label: role.roleName,
  }));

  return (
    <div className="permission-editor">
      <div className="permission-editor__list" style={{ maxHeight: ROLE_LIST_MAX_HEIGHT, overflowY: 'auto' }} role="region" aria-label={t('clients.roles.list')} tabIndex={0}>
        {shown.length === 0 ? <p className="permission-editor__empty">{t('clients.roles.none')}</p> : null}
        {shown.map((app) => (
          <section key={app.applicationId} aria-label={app.applicationName} className="permission-editor__app">
            <ul>
              {app.roles.map((role) => (
                <li key={role.roleId} data-testid={`role-${role.roleId}`}>
                  <RoleTag application={app.applicationName} role={role.roleName} origins={originsOf(role)} />
                  {locked(role) ? (
                    <span className="permission-editor__reason">{why(role)}</span>
                  ) : (
                    <Button
                      type="text"
                      size="small"
                      icon={<CloseOutlined aria-hidden />}
                      aria-label={t('clients.roles.remove', { role: role.roleName, application: app.applicationName })}
                      onClick={() => onChange(selected.filter((id) => id !== role.roleId))}
                    />
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      {adding ? (
        <div className="permission-editor__add">
          <Select
            aria-label={t('clients.roles.application')}
            placeholder={t('clients.roles.application')}
            value={appId}
            options={appOptions}
            onChange={(value: string) => {
              setAppId(value);
              setRoleId(undefined);
            }}
          />
          <Select aria-label={t('clients.roles.role')} placeholder={t('clients.roles.role')} value={roleId} options={roleOptions} onChange={(value: string) => setRoleId(value)} disabled={!appId} />
          <Button type="primary" onClick={confirm} disabled={!roleId}>
            {t('clients.roles.confirmAdd')}
          </Button>
          <Button onClick={() => startAdding(false)}>{t('clients.roles.cancelAdd')}</Button>
        </div>
      ) : (
        <Button icon={<PlusOutlined aria-hidden />} onClick={() => startAdding(true)} disabled={appOptions.length === 0}>
          {t('clients.roles.add')}
        </Button>
      )}
    </div>
  );
}
