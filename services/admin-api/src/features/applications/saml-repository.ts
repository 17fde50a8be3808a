// The identity provider's types: the contracts' lists are assigned to them and read back from them,
// so a value one knows and the other does not fails to compile.
import type { SamlAttributeSource as SamlApplicationAttributeSource, SamlNameIdFormat as SamlApplicationNameIdFormat } from '@gatehouse/core';
import type { Queryable } from '../../db.js';

/** A SAML application's settings as stored (application_saml_settings). */
export interface SamlSettingsRow {
  entity_id: string;
  assertion_consumer_services: Array<{ url: string; binding: string }>;
  single_logout_url: string | null;
  name_id_format: SamlApplicationNameIdFormat;
  attribute_mapping: Array<{ source: SamlApplicationAttributeSource; name: string }>;
  certificate: string | null;
  want_authn_requests_signed: boolean;
  encrypt_assertions: boolean;
  default_relay_state: string | null;
}

/** The settings to store, by column. */
export interface SamlSettingsRecord {
  entityId: string;
  assertionConsumerServices: Array<{ url: string; binding: string }>;
  singleLogoutUrl: string | null;
  nameIdFormat: SamlApplicationNameIdFormat;
  attributeMapping: Array<{ source: SamlApplicationAttributeSource; name: string }>;
  certificate: string | null;
  wantAuthnRequestsSigned: boolean;
  encryptAssertions: boolean;
  defaultRelayState: string | null;
}

export async function findSamlSettings(db: Queryable, applicationId: string): Promise<SamlSettingsRow | undefined> {
  const [row] = await db.query<SamlSettingsRow[]>(
    `SELECT entity_id, assertion_consumer_services, single_logout_url, name_id_format, attribute_mapping, certificate,
            want_authn_requests_signed, encrypt_assertions, default_relay_state
       FROM application_saml_settings WHERE application_id = $1`,
    [applicationId],
  );
  return row;
}

/** The other application that has this entity id, if any. */
export async function findEntityIdOwner(db: Queryable, entityId: string, applicationId: string | null): Promise<{ id: string; display_name: string } | undefined> {
  const [row] = await db.query<Array<{ id: string; display_name: string }>>(
    `SELECT a.id, a.display_name FROM application_saml_settings s JOIN applications a ON a.id = s.application_id
      WHERE s.entity_id = $1 AND ($2::text IS NULL OR s.application_id <> $2)`,
    [entityId, applicationId],
  );
  return row;
}

/** Makes the application a SAML one. */
export async function setSamlProtocol(db: Queryable, applicationId: string): Promise<void> {
  await db.query(`UPDATE applications SET protocol = 'saml', modified_on = now() WHERE id = $1`, [applicationId]);
}

/** Stores the application's SAML settings, replacing any it had. */
export async function upsertSamlSettings(db: Queryable, applicationId: string, record: SamlSettingsRecord): Promise<void> {
  await db.query(
    `INSERT INTO application_saml_settings (application_id, entity_id, assertion_consumer_services, single_logout_url, name_id_format, attribute_mapping,
                                            certificate, want_authn_requests_signed, encrypt_assertions, default_relay_state)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6::jsonb, $7, $8, $9, $10)
     ON CONFLICT (application_id) DO UPDATE
        SET entity_id = EXCLUDED.entity_id, assertion_consumer_services = EXCLUDED.assertion_consumer_services,
            single_logout_url = EXCLUDED.single_logout_url, name_id_format = EXCLUDED.name_id_format,
            attribute_mapping = EXCLUDED.attribute_mapping, certificate = EXCLUDED.certificate,
            want_authn_requests_signed = EXCLUDED.want_authn_requests_signed, encrypt_assertions = EXCLUDED.encrypt_assertions,
            default_relay_state = EXCLUDED.default_relay_state, modified_on = now()`,
    [
      applicationId,
      record.entityId,
      JSON.stringify(record.assertionConsumerServices),
      record.singleLogoutUrl,
      record.nameIdFormat,
      JSON.stringify(record.attributeMapping),
      record.certificate,
      record.wantAuthnRequestsSigned,
      record.encryptAssertions,
      record.defaultRelayState,
    ],
  );
  await db.query('UPDATE applications SET modified_on = now() WHERE id = $1', [applicationId]);
}
