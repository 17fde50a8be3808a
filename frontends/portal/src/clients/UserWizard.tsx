import { CLIENT_PROFILE_AREA_NAME, isFreeMailAddress, LANGUAGES } from '@gatehouse/contracts';
import { LANGUAGE_NAMES } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form, { type Rule } from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Steps from 'antd/es/steps';
import Switch from 'antd/es/switch';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, failureMessage } from '../api/errors';
import { useTimedMessages } from '../account/use-timed-messages';
import {
  useClientAreasQuery,
  useCreateClientUserMutation,
  useEditRequestMutation,
  useLazyIdentityPermissionsQuery,
  useRequestPermissionsMutation,
  useUpdateClientUserMutation,
  type ClientUser,
  type ClientUserBody,
  type IdentityPermissions,
} from './clients-api';
import { ownRoleIds, PermissionEditor } from './PermissionEditor';
import type { TenantOption } from './TenantSelect';

/** The wizard's width (spec 9). */
export const WIZARD_WIDTH = 800;
/** How long an operation's error stays (spec 9). */
export const OPERATION_ERROR_MS = 5000;

export interface UserFormValues {
  userName: string;
  areaId: string;
  firstName: string;
  lastName: string;
  language: string;
  email: string;
  phoneNumber?: string;
  jobTitle?: string;
  manager?: string;
  teams?: string[];
}

type FormKey = keyof UserFormValues;

export interface UserWizardProps {
  tenant: TenantOption | undefined;
  /** The user edited; none: a new one. */
  user?: ClientUser;
  canAutoApprove: boolean;
  onClose: () => void;
  /** Told the changes were saved (the page's success notice). */
  onSaved: (text: string) => void;
}

function valuesOf(user: ClientUser | undefined): Partial<UserFormValues> {
  if (!user) return { teams: [] };
  return {
    userName: user.userName,
    areaId: user.areaId,
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    language: user.language,
    email: user.email,
    phoneNumber: user.phoneNumber ?? '',
    jobTitle: user.jobTitle ?? '',
    manager: user.manager ?? '',
    teams: user.teams,
  };
}

function bodyOf(values: UserFormValues, profileFields: boolean): ClientUserBody {
  const optional = (value: string | undefined) => (value?.trim() ? value.trim() : null);
  return {
    userName: values.userName.trim(),
    areaId: values.areaId,
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    language: values.language as ClientUserBody['language'],
    email: values.email.trim(),
    phoneNumber: optional(values.phoneNumber),
    // Outside the areas that carry them, none is sent: the server keeps what the user had.
    jobTitle: profileFields ? optional(values.jobTitle) : null,
    manager: profileFields ? optional(values.manager) : null,
    teams: profileFields ? (values.teams ?? []) : null,
  };
}

/**
 * Create or edit a client user in two steps (spec 4): User Information, saved (created or changed)
 * on Next or Save and exit; then User's Permissions, whose Done requests the complete set of the
 * user's own roles in the tenant, applied at once when the approver chose Approve.
 */
export function UserWizard({ tenant, user, canAutoApprove, onClose, onSaved }: UserWizardProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const [form] = Form.useForm<UserFormValues>();
  const [step, setStep] = useState<0 | 1>(0);
  const [saved, setSaved] = useState<ClientUser | undefined>(user);
  const [permissions, setPermissions] = useState<IdentityPermissions>();
  const [roles, setRoles] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const [approve, setApprove] = useState(false);
  const [errors, showErrors] = useTimedMessages(OPERATION_ERROR_MS);
  const areas = useClientAreasQuery();
  const [createUser, creation] = useCreateClientUserMutation();
  const [updateUser, update] = useUpdateClientUserMutation();
  const [loadPermissions, permissionsLoad] = useLazyIdentityPermissionsQuery();
  const [request, requesting] = useRequestPermissionsMutation();
  const [editRequest, editing] = useEditRequestMutation();
  const areaId = Form.useWatch('areaId', form) ?? user?.areaId;

  // Only areas the user may be put in; the user's own stays listed should the list not be readable.
  const areaList = (areas.data?.items ?? []).filter((area) => !area.system);
  if (user && !areaList.some((area) => area.id === user.areaId)) areaList.push({ id: user.areaId, name: user.areaName, default: false, system: false });
  const area = areaList.find((item) => item.id === areaId);
  const profileFields = !!area && (area.default || area.name.toLowerCase() === CLIENT_PROFILE_AREA_NAME.toLowerCase());
  const isNew = !saved;

  const required = (message: string): Rule[] => [{ required: true, whitespace: true, message }];
  // A new user's address may not be a free-mail provider's (the user name is the e-mail too).
  const noFreeMail: Rule = {
    validator: (_rule, value: string | undefined) =>
      isNew && value && isFreeMailAddress(value) ? Promise.reject(new Error(t('clients.wizard.invalidEmail'))) : Promise.resolve(),
  };
  const emailRules: Rule[] = [...required(t('clients.wizard.emailRequired')), { type: 'email', message: t('clients.wizard.invalidEmail') }, noFreeMail];

  /** Validates and saves the user information; answers the user, or nothing when it could not be saved. */
  const saveUser = async (): Promise<ClientUser | undefined> => {
    let values: UserFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return undefined;
    }
    if (!tenant) {
      showErrors([t('clients.selectTenant')]);
      return undefined;
    }
    const body = bodyOf(values, profileFields);
    const result = saved ? await updateUser({ tenantId: tenant.id, id: saved.id, body }) : await createUser({ tenantId: tenant.id, body });
    if (result.error) {
      const fields = fieldErrorsOf(result.error);
      if (fields.length) form.setFields(fields.map((error) => ({ name: error.field as FormKey, errors: [error.message] })));
      else showErrors([failureMessage(result.error, common)]);
      return undefined;
    }
    setSaved(result.data);
    return result.data;
  };

  const saveAndExit = async () => {
    if (!(await saveUser())) return;
    onSaved(t('clients.saved'));
    onClose();
  };

  const next = async () => {
    const current = await saveUser();
    if (!current || !tenant) return;
    const result = await loadPermissions({ identityId: current.id, tenantId: tenant.id });
    if (!result.data) {
      showErrors([failureMessage(result.error, common)]);
      return;
    }
    setPermissions(result.data);
    const waiting = result.data.waitingRequest;
    setRoles(waiting?.isMine ? waiting.roles.map((role) => role.roleId) : ownRoleIds(result.data.applications));
    setStep(1);
  };

  const done = async () => {
    if (!permissions || !saved || !tenant) return;
    const waiting = permissions.waitingRequest;
    const result =
      waiting?.isMine && !approve
        ? await editRequest({ id: waiting.id, roles, isInheritable: permissions.isInheritable })
        : await request({
            tenantId: tenant.id,
            identityType: 'User',
            identityId: saved.id,
            isInheritable: permissions.isInheritable,
            roles,
            ...(canAutoApprove ? { autoApprove: approve } : {}),
          });
    if (result.error) {
      showErrors([failureMessage(result.error, common)]);
      return;
    }
    onSaved(t('clients.saved'));
    onClose();
  };

  const busy = creation.isLoading || update.isLoading || permissionsLoad.isFetching || requesting.isLoading || editing.isLoading;
  const footer = [
    <Button key="cancel" onClick={onClose}>
      {t('clients.wizard.cancel')}
    </Button>,
    ...(step === 0
      ? [
          <Button key="saveAndExit" onClick={() => void saveAndExit()} loading={busy}>
            {t('clients.wizard.saveAndExit')}
          </Button>,
          <Button key="next" type="primary" onClick={() => void next()} loading={busy}>
            {t('clients.wizard.next')}
          </Button>,
        ]
      : [
          <Button key="done" type="primary" onClick={() => void done()} loading={busy} disabled={adding}>
            {t('clients.wizard.done')}
          </Button>,
        ]),
  ];

  return (
    <Modal open width={WIZARD_WIDTH} title={user ? t('clients.wizard.editTitle') : t('clients.wizard.createTitle')} footer={footer} onCancel={onClose} maskClosable={false} destroyOnHidden>
      <Steps current={step} size="small" items={[{ title: t('clients.wizard.userStep') }, { title: t('clients.wizard.permissionsStep') }]} />
      {errors.map((error) => (
        <Alert key={error} className="clients-wizard__error" type="error" showIcon title={error} />
      ))}
      <div hidden={step !== 0}>
        <Form<UserFormValues> form={form} layout="vertical" initialValues={valuesOf(user)} className="clients-wizard__form">
          <Form.Item name="userName" label={t('clients.wizard.userName')} rules={[...required(t('clients.wizard.userNameRequired')), noFreeMail]}>
            <Input disabled={!!saved?.hasSignedIn} autoComplete="off" />
          </Form.Item>
          <Form.Item name="areaId" label={t('clients.wizard.area')} rules={[{ required: true, message: t('clients.wizard.areaRequired') }]}>
            <Select options={areaList.map((item) => ({ value: item.id, label: item.name }))} loading={areas.isFetching} />
          </Form.Item>
          <Form.Item name="firstName" label={t('clients.wizard.firstName')} rules={required(t('clients.wizard.firstNameRequired'))}>
            <Input />
          </Form.Item>
          <Form.Item name="lastName" label={t('clients.wizard.lastName')} rules={required(t('clients.wizard.lastNameRequired'))}>
            <Input />
          </Form.Item>
          <Form.Item name="language" label={t('clients.wizard.language')} rules={[{ required: true, message: t('clients.wizard.languageRequired') }]}>
            <Select options={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))} />
          </Form.Item>
          <Form.Item name="email" label={t('clients.wizard.email')} rules={emailRules}>
            <Input type="email" />
          </Form.Item>
          <Form.Item name="phoneNumber" label={t('clients.wizard.phoneNumber')}>
            <Input />
          </Form.Item>
          <Form.Item name="jobTitle" label={t('clients.wizard.jobTitle')}>
            <Input disabled={!profileFields} />
          </Form.Item>
          <Form.Item name="manager" label={t('clients.wizard.manager')}>
            <Input disabled={!profileFields} />
          </Form.Item>
          <Form.Item name="teams" label={t('clients.wizard.teams')}>
            <Select mode="tags" disabled={!profileFields} open={false} suffixIcon={null} />
          </Form.Item>
        </Form>
      </div>
      {step === 1 && permissions ? (
        <div className="clients-wizard__permissions">
          {permissions.waitingRequest && !permissions.waitingRequest.isMine ? (
            <Alert type="info" showIcon title={t('clients.wizard.waitingOther')} />
          ) : null}
          <PermissionEditor applications={permissions.applications} selected={roles} onChange={setRoles} onAddingChange={setAdding} />
          {canAutoApprove ? (
            <label className="clients-wizard__approve">
              <Switch checked={approve} onChange={setApprove} checkedChildren={t('clients.wizard.approve')} unCheckedChildren={t('clients.wizard.notApprove')} aria-label={t('clients.wizard.approveLabel')} />
            </label>
          ) : null}
        </div>
      ) : null}
    </Modal>
  );
}
