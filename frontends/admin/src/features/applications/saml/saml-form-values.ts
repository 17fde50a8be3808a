import type { SamlApplicationAttributeSource, SamlApplicationNameIdFormat } from '@gatehouse/contracts';
import type { FormInstance } from 'antd/es/form';
import { fieldErrorsOf } from '../../directory/components/errors';
import type { SamlMetadata, SamlSettingsChanges, SamlApplication } from './saml-api';

/** What the SAML form holds: texts as typed, the ACS addresses as a list of rows. */
export interface SamlFormValues {
  entityId?: string;
  assertionConsumerServices?: string[];
  singleLogoutUrl?: string;
  nameIdFormat?: SamlApplicationNameIdFormat;
  attributes?: Array<{ source?: SamlApplicationAttributeSource; name?: string }>;
  certificate?: string;
  wantAuthnRequestsSigned?: boolean;
  encryptAssertions?: boolean;
  defaultRelayState?: string | null;
}

/** The fields whose server errors the form shows in place. */
const SAML_FIELDS = ['entityId', 'assertionConsumerServices', 'singleLogoutUrl', 'nameIdFormat', 'attributes', 'certificate', 'wantAuthnRequestsSigned', 'encryptAssertions', 'defaultRelayState'];

/** The settings as the form shows them (an empty form, one ACS row to fill in, when there are none yet). */
export function samlFormValuesOf(settings: SamlApplication['settings']): SamlFormValues {
  if (!settings) return { entityId: '', assertionConsumerServices: [''], singleLogoutUrl: '', nameIdFormat: 'email', attributes: [], certificate: '', wantAuthnRequestsSigned: false, encryptAssertions: false, defaultRelayState: '' };
  return {
    entityId: settings.entityId,
    assertionConsumerServices: settings.assertionConsumerServices.map((service) => service.url),
    singleLogoutUrl: settings.singleLogoutUrl ?? '',
    nameIdFormat: settings.nameIdFormat,
    attributes: settings.attributes.map((attribute) => ({ ...attribute })),
    certificate: settings.certificate ?? '',
    wantAuthnRequestsSigned: settings.wantAuthnRequestsSigned,
    encryptAssertions: settings.encryptAssertions,
    defaultRelayState: settings.defaultRelayState ?? '',
  };
}

/** The form's fields as the service provider's metadata fills them (the mapping and what the metadata does not say stay). */
export function samlFormValuesFromMetadata(metadata: SamlMetadata, current: SamlFormValues): SamlFormValues {
  return {
    ...current,
    entityId: metadata.entityId,
    assertionConsumerServices: metadata.assertionConsumerServices.map((service) => service.url),
    singleLogoutUrl: metadata.singleLogoutUrl ?? '',
    nameIdFormat: metadata.nameIdFormat ?? current.nameIdFormat ?? 'email',
    certificate: metadata.certificate ?? '',
    wantAuthnRequestsSigned: metadata.wantAuthnRequestsSigned,
  };
}

const text = (value: string | undefined | null) => value?.trim() ?? '';

/** The settings to send: texts trimmed (an empty optional one is none), blank rows left out. */
export function samlSettingsOf(values: SamlFormValues): SamlSettingsChanges {
  return {
    entityId: text(values.entityId),
    assertionConsumerServices: (values.assertionConsumerServices ?? []).map(text).filter(Boolean).map((url) => ({ url })),
    singleLogoutUrl: text(values.singleLogoutUrl) || null,
    nameIdFormat: values.nameIdFormat ?? 'email',
    attributes: (values.attributes ?? []).filter((row) => row.source && text(row.name)).map((row) => ({ source: row.source!, name: text(row.name) })),
    certificate: text(values.certificate) || null,
    wantAuthnRequestsSigned: values.wantAuthnRequestsSigned ?? false,
    encryptAssertions: values.encryptAssertions ?? false,
    defaultRelayState: text(values.defaultRelayState) || null,
  };
}

/**
 * Puts the server's field errors under the form's fields (`assertionConsumerServices.1.url` under
 * the second address row). Returns whether every one found its field.
 */
export function showSamlErrors(form: FormInstance, error: unknown): boolean {
  const errors = fieldErrorsOf(error);
  const placed = errors.filter((item) => SAML_FIELDS.includes(item.field.split('.')[0]!));
  const byField = new Map<string, string[]>();
  for (const item of placed) {
    // An address row's error is on its `url`; the form's row is the address itself.
    const field = item.field.replace(/^(assertionConsumerServices\.\d+)\.url$/, '$1');
    byField.set(field, [...(byField.get(field) ?? []), item.message]);
  }
  if (byField.size) {
    form.setFields([...byField].map(([field, messages]) => ({ name: field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), errors: messages })));
  }
  return errors.length > 0 && placed.length === errors.length;
}
