import { fieldErrorsOf } from '../directory/components/errors';
import type { FormInstance } from 'antd/es/form';
import type { ApplicationChanges, ApplicationDetail, NewApplication } from './applications-api';

/** What the application forms hold: texts as typed, URI lists with their blank rows. */
export interface ApplicationFormValues {
  id?: string;
  name?: string;
  displayName?: string;
  description?: string;
  type: 'confidential' | 'public';
  privateUrl?: string;
  publicUrl?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  prerelease?: boolean;
  hideInUserList?: boolean;
  /** Off: the application signs nobody in. */
  enabled?: boolean;
  /** Users may sign in to it on devices without a browser (device code). */
  deviceFlow?: boolean;
  /** Its tokens must be sender-constrained (DPoP): token requests without a proof are refused. */
  requireDpop?: boolean;
  icon?: string;
  /** A new image (data URL), null to remove the uploaded one, undefined to keep it. */
  iconImage?: string | null;
}

/** The fields whose server errors the forms show in place (a list's items as `redirectUris.0`). */
export const APPLICATION_FIELDS = [
  'id',
  'name',
  'displayName',
  'description',
  'type',
  'privateUrl',
  'publicUrl',
  'redirectUris',
  'postLogoutRedirectUris',
  'enabled',
  'deviceFlow',
  'requireDpop',
  'icon',
  'iconImage',
] as const;

/** A new application's form before anything is typed: confidential, one redirect URI to fill in. */
export const NEW_APPLICATION_VALUES: ApplicationFormValues = {
  type: 'confidential',
  redirectUris: [''],
  postLogoutRedirectUris: [],
  prerelease: false,
  hideInUserList: false,
  enabled: true,
  deviceFlow: false,
  requireDpop: false,
};

/** An application as its General properties form shows it. */
export function formValuesOf(application: ApplicationDetail): ApplicationFormValues {
  return {
    displayName: application.displayName,
    description: application.description ?? '',
    type: application.type,
    privateUrl: application.privateUrl ?? '',
    publicUrl: application.publicUrl ?? '',
    redirectUris: application.redirectUris,
    postLogoutRedirectUris: application.postLogoutRedirectUris,
    prerelease: application.prerelease,
    hideInUserList: application.hideInUserList,
    enabled: application.enabled,
    deviceFlow: application.deviceFlow,
    requireDpop: application.requireDpop,
    icon: application.icon ?? '',
    iconImage: undefined,
  };
}

const text = (value: string | undefined) => value?.trim() ?? '';
const uris = (values: string[] | undefined) => (values ?? []).map((uri) => uri.trim()).filter(Boolean);

/** The General properties to send: texts trimmed (an empty optional one is none), blank URI rows left out. */
export function changesOf(values: ApplicationFormValues): ApplicationChanges {
  return {
    displayName: text(values.displayName),
    description: text(values.description) || null,
    type: values.type,
    privateUrl: text(values.privateUrl),
    publicUrl: text(values.publicUrl) || null,
    redirectUris: uris(values.redirectUris),
    postLogoutRedirectUris: uris(values.postLogoutRedirectUris),
    prerelease: values.prerelease ?? false,
    hideInUserList: values.hideInUserList ?? false,
    enabled: values.enabled ?? true,
    deviceFlow: values.deviceFlow ?? false,
    requireDpop: values.requireDpop ?? false,
    icon: text(values.icon) || null,
    ...(values.iconImage === undefined ? {} : { iconImage: values.iconImage }),
  };
}

/** A new application to send: its id (none when left empty), its name and its General properties. */
export function newApplicationOf(values: ApplicationFormValues): NewApplication {
  return { ...changesOf(values), id: text(values.id) || null, name: text(values.name) };
}

/**
 * Drops the blank rows of the URI lists from the form itself, so that the rows shown are the ones
 * sent and a server error on `redirectUris.1` lands on the second row.
 */
export function dropBlankUris(form: FormInstance<ApplicationFormValues>): void {
  for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
    const current: string[] = form.getFieldValue(field) ?? [];
    if (current.some((uri) => !uri?.trim())) form.setFieldValue(field, uris(current));
  }
}

/**
 * Puts the server's field errors under the form's fields (`redirectUris.1` under the list's second
 * row). Returns whether every one found its field, in which case the form alone says what to fix.
 */
export function showApplicationErrors(form: FormInstance, error: unknown): boolean {
  const errors = fieldErrorsOf(error);
  const placed = errors.filter((item) => (APPLICATION_FIELDS as readonly string[]).includes(item.field.split('.')[0]!));
  const byField = new Map<string, string[]>();
  for (const item of placed) byField.set(item.field, [...(byField.get(item.field) ?? []), item.message]);
  if (byField.size) {
    form.setFields(
      [...byField].map(([field, messages]) => ({ name: field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), errors: messages })),
    );
  }
  return errors.length > 0 && placed.length === errors.length;
}
