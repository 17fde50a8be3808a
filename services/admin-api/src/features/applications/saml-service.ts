import { X509Certificate } from 'node:crypto';
import {
  AppError,
  IDENTITY_APPLICATION_ID,
  isEncryptionCertificate,
  isSamlEndpointUrl,
  isSamlEntityId,
  type AppContext,
  type FieldError,
} from '@gatehouse/core';
import { enforce, mayEditApplication } from '@gatehouse/core/access';
import {
  SAML_POST_BINDING,
  type SamlApplication,
  type SamlMetadata,
  type SamlSettings,
  type samlMetadataSourceSchema,
  type samlSettingsBodySchema,
} from '@gatehouse/contracts';
import { QueryFailedError } from 'typeorm';
import type { z } from 'zod';
import { callerAuthority } from '../../access.js';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { Queryable } from '../../db.js';
import { findUserName } from '../directory/lookups.js';
import { findApplication, type ApplicationRow } from './repository.js';
import { downloadSpMetadata, readSpMetadata } from './saml-metadata.js';
import { findEntityIdOwner, findSamlSettings, setSamlProtocol, upsertSamlSettings, type SamlSettingsRecord, type SamlSettingsRow } from './saml-repository.js';

export type SamlSettingsInput = z.output<typeof samlSettingsBodySchema>;
type MetadataSource = z.output<typeof samlMetadataSourceSchema>;

const ENTITY_ID_INDEX = 'application_saml_settings__entity_id';

/**
 * What the rules of the bootstrap file (domain/saml.ts) find wrong with SAML settings, each on its
 * field under `prefix` (`saml.` when they come with a new application).
 */
export function samlSettingsErrors(settings: SamlSettingsInput, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const at = (field: string, code: FieldError['code']) => errors.push({ field: `${prefix}${field}`, code });
  if (!isSamlEntityId(settings.entityId)) at('entityId', 'samlApplications.invalid_entity_id');
  settings.assertionConsumerServices.forEach(({ url }, index) => {
    if (!isSamlEndpointUrl(url)) at(`assertionConsumerServices.${index}.url`, 'samlApplications.invalid_url');
    else if (settings.assertionConsumerServices.findIndex((other) => other.url === url) !== index) at(`assertionConsumerServices.${index}.url`, 'samlApplications.duplicate_url');
  });
  if (settings.singleLogoutUrl !== null && !isSamlEndpointUrl(settings.singleLogoutUrl)) at('singleLogoutUrl', 'samlApplications.invalid_url');
  settings.attributes.forEach(({ name }, index) => {
    if (settings.attributes.findIndex((other) => other.name === name) !== index) at(`attributes.${index}.name`, 'samlApplications.duplicate_attribute');
  });
  if (settings.certificate !== null && !parsesAsCertificate(settings.certificate)) at('certificate', 'samlApplications.invalid_certificate');
  else if (settings.certificate === null && settings.wantAuthnRequestsSigned) at('certificate', 'samlApplications.certificate_required');
  else if (settings.certificate === null && settings.encryptAssertions) at('certificate', 'samlApplications.encryption_certificate_required');
  else if (settings.certificate !== null && settings.encryptAssertions && !isEncryptionCertificate(settings.certificate)) at('certificate', 'samlApplications.encryption_certificate_rsa');
  return errors;
}

/** The record to store: the certificate as one PEM block with a final line break. */
export function samlRecordOf(settings: SamlSettingsInput): SamlSettingsRecord {
  return {
    entityId: settings.entityId,
    assertionConsumerServices: settings.assertionConsumerServices.map(({ url }) => ({ url, binding: SAML_POST_BINDING })),
    singleLogoutUrl: settings.singleLogoutUrl,
    nameIdFormat: settings.nameIdFormat,
    attributeMapping: settings.attributes.map(({ source, name }) => ({ source, name })),
    certificate: settings.certificate === null ? null : `${settings.certificate.trim()}\n`,
    wantAuthnRequestsSigned: settings.wantAuthnRequestsSigned,
    encryptAssertions: settings.encryptAssertions,
    defaultRelayState: settings.defaultRelayState,
  };
}

/**
 * Makes the application a SAML one with these settings (none: set later), in the caller's
 * transaction. An entity id is one application's only: another's is a 409 naming it.
 */
export async function storeSaml(db: Queryable, applicationId: string, settings: SamlSettingsInput | undefined, field = 'entityId'): Promise<void> {
  await setSamlProtocol(db, applicationId);
  if (!settings) return;
  const owner = await findEntityIdOwner(db, settings.entityId, applicationId);
  if (owner) throw entityIdInUse(owner.display_name, field);
  await upsertSamlSettings(db, applicationId, samlRecordOf(settings));
}

/**
 * The entity id is taken by an application stored at the same moment (the unique index said so):
 * the same 409 as when it was found taken. Anything else is rethrown.
 */
export async function entityIdRace(context: AppContext, error: unknown, entityId: string | undefined, field = 'entityId'): Promise<never> {
  const constraint = error instanceof QueryFailedError ? (error.driverError as { constraint?: string }).constraint : undefined;
  if (constraint !== ENTITY_ID_INDEX || entityId === undefined) throw error;
  const owner = await findEntityIdOwner(context.dataSource, entityId, null);
  throw entityIdInUse(owner?.display_name ?? entityId, field);
}

function entityIdInUse(application: string, field: string): AppError {
  return new AppError('samlApplications.entity_id_in_use', 409, { application }, [{ field, code: 'samlApplications.entity_id_in_use', params: { application } }]);
}

/**
 * SAML applications (service providers): their settings, read by those who read applications,
 * changed by administrators; and a service provider's metadata read for the form.
 */
export class SamlApplicationsService {
  constructor(private readonly context: AppContext) {}

  async get(caller: Caller, id: string): Promise<SamlApplication> {
    const application = await this.samlApplication(this.context.dataSource, caller, id);
    return this.present(application.id, await findSamlSettings(this.context.dataSource, id));
  }

  /** Sets (or replaces) the settings of a SAML application, logged with what changed. */
  async set(caller: Caller, id: string, body: SamlSettingsInput): Promise<SamlApplication> {
    const errors = samlSettingsErrors(body);
    const name = await this.context.dataSource
      .transaction(async (em) => {
        const application = await this.samlApplication(em, caller, id, true);
        enforce(mayEditApplication(await callerAuthority(em, caller, { areaIds: null }), { id, isProductOwn: this.isProductOwn(application), ownerIds: [] }, { kind: 'update', fields: ['saml'] }));
        if (errors.length) throw new AppError('errors.validation', 400, {}, errors);
        const before = await findSamlSettings(em, id);
        await storeSaml(em, id, body);
        const changes = changesOf(before, samlRecordOf(body));
        if (Object.keys(changes).length) {
          await writeSystemLog(em, { operation: 'UpdateApplicationSaml', userId: caller.userId, userName: await findUserName(em, caller.userId), metadata: { applicationId: id, name: application.name, changes } });
        }
        return application.name;
      })
      .catch((error: unknown) => entityIdRace(this.context, error, body.entityId));
    // The identity provider reads the settings afresh; the client it signs the application in with follows its protocol.
    this.context.broadcast.publish('application.changed', { clientId: name });
    return this.get(caller, id);
  }

  /** What the uploaded metadata, or the metadata at an address, says of the service provider. */
  async readMetadata(source: MetadataSource): Promise<SamlMetadata> {
    const xml = source.xml?.trim() ? source.xml : undefined;
    const url = source.url?.trim() ? source.url.trim() : undefined;
    if ((xml === undefined) === (url === undefined)) {
      throw new AppError('samlApplications.metadata_source', 400, {}, [{ field: xml === undefined ? 'xml' : 'url', code: 'samlApplications.metadata_source' }]);
    }
    if (xml !== undefined) return readSpMetadata(xml, 'xml');
    return readSpMetadata(await downloadSpMetadata(url!, this.context.config.oidc.allowPrivateNetworkRequests), 'url');
  }

  /** The application, which must be a SAML one, else a 404 (unknown) or 409 (an OpenID Connect one) or 409 (the product's own). */
  private async samlApplication(db: Queryable, caller: Caller, id: string, lock = false): Promise<ApplicationRow> {
    const application = await findApplication(db, id, caller.userId, lock);
    if (!application) throw new AppError('applications.not_found', 404);
    if (this.isProductOwn(application)) throw new AppError('samlApplications.product_own', 409);
    if (application.protocol !== 'saml') throw new AppError('samlApplications.not_saml', 409);
    return application;
  }

  private isProductOwn(row: Pick<ApplicationRow, 'id' | 'name'>): boolean {
    const { portalClientId, adminClientId } = this.context.config.oidc;
    return row.id === IDENTITY_APPLICATION_ID || row.name === portalClientId || row.name === adminClientId;
  }

  private present(applicationId: string, row: SamlSettingsRow | undefined): SamlApplication {
    const base = `${this.context.config.server.publicUrl.replace(/\/+$/, '')}/saml`;
    return { applicationId, settings: row ? settingsOf(row) : null, idpEntityId: base, idpMetadataUrl: `${base}/metadata` };
  }
}

function settingsOf(row: SamlSettingsRow): SamlSettings {
  return {
    entityId: row.entity_id,
    assertionConsumerServices: row.assertion_consumer_services.map(({ url }) => ({ url, binding: SAML_POST_BINDING })),
    singleLogoutUrl: row.single_logout_url,
    nameIdFormat: row.name_id_format,
    attributes: row.attribute_mapping,
    certificate: row.certificate,
    wantAuthnRequestsSigned: row.want_authn_requests_signed,
    encryptAssertions: row.encrypt_assertions,
    defaultRelayState: row.default_relay_state,
  };
}

/** What changed, for the system log (the certificate named, never copied). */
function changesOf(before: SamlSettingsRow | undefined, after: SamlSettingsRecord): Record<string, { from: unknown; to: unknown } | string> {
  const previous: Partial<SamlSettingsRecord> = before
    ? {
        entityId: before.entity_id,
        assertionConsumerServices: before.assertion_consumer_services,
        singleLogoutUrl: before.single_logout_url,
        nameIdFormat: before.name_id_format,
        attributeMapping: before.attribute_mapping,
        wantAuthnRequestsSigned: before.want_authn_requests_signed,
        encryptAssertions: before.encrypt_assertions,
        defaultRelayState: before.default_relay_state,
      }
    : {};
  const changes: Record<string, { from: unknown; to: unknown } | string> = {};
  for (const field of ['entityId', 'assertionConsumerServices', 'singleLogoutUrl', 'nameIdFormat', 'attributeMapping', 'wantAuthnRequestsSigned', 'encryptAssertions', 'defaultRelayState'] as const) {
    if (JSON.stringify(previous[field] ?? null) !== JSON.stringify(after[field])) changes[field] = { from: previous[field] ?? null, to: after[field] };
  }
  if ((before?.certificate ?? null) !== after.certificate) changes.certificate = after.certificate === null ? 'removed' : 'replaced';
  return changes;
}

function parsesAsCertificate(pem: string): boolean {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}
