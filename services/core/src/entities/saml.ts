import { Check, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, type Relation } from 'typeorm';
import { SAML_NAME_ID_FORMATS, type SamlAssertionConsumerService, type SamlAttributeMapping, type SamlNameIdFormat } from '../domain/saml.js';
import { Application } from './applications.js';
import { Bool, CreatedAt, Json, ModifiedOn, Text, Varchar, oneOf } from './columns.js';

/**
 * What a SAML application (a service provider, `protocol` saml) is to the product's identity
 * provider: its entity id, where assertions go, how users are named and what is said about them.
 */
@Entity('application_saml_settings')
@Index('application_saml_settings__entity_id', ['entityId'], { unique: true })
@Check('application_saml_settings__name_id_format__check', oneOf('name_id_format', SAML_NAME_ID_FORMATS))
export class ApplicationSamlSettings {
  @PrimaryColumn({ name: 'application_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'application_saml_settings__pkey' })
  applicationId: string;
  @OneToOne(() => Application, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'application_saml_settings__application_id__fkey' })
  application?: Relation<Application>;
  /** The service provider's entity id: the Issuer of its requests, the Audience of its assertions. */
  @Varchar('entity_id', 1000)
  entityId: string;
  /** Where assertions may be posted, the first being the default one. */
  @Json('assertion_consumer_services', { default: () => "'[]'" })
  assertionConsumerServices: SamlAssertionConsumerService[];
  @Varchar('single_logout_url', 2000, { nullable: true })
  singleLogoutUrl: string | null;
  @Varchar('name_id_format', 20, { default: 'email' })
  nameIdFormat: SamlNameIdFormat;
  /** The attributes its assertions carry, each under the application's own name. */
  @Json('attribute_mapping', { default: () => "'[]'" })
  attributeMapping: SamlAttributeMapping[];
  /** The service provider's certificate (PEM): it signs its requests with the key of it. */
  @Text('certificate', { nullable: true })
  certificate: string | null;
  /** Its authentication requests must be signed (with the key of `certificate`). */
  @Bool('want_authn_requests_signed')
  wantAuthnRequestsSigned: boolean;
  /** Its assertions are encrypted for it (with the key of `certificate`), after being signed. */
  @Bool('encrypt_assertions')
  encryptAssertions: boolean;
  /** The RelayState of a sign-in started from the portal (where the application lands the user); none: empty. */
  @Varchar('default_relay_state', 2000, { nullable: true })
  defaultRelayState: string | null;
  @CreatedAt()
  createdAt: Date;
  @ModifiedOn()
  modifiedOn: Date;
}
