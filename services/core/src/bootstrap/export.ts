import { SECURITY_SETTINGS, groupDomainsSchema, lockoutSettingsSchema, passwordPolicySchema, tokenLifetimesSchema } from '@gatehouse/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import YAML from 'yaml';
import type { z } from 'zod';
import { GLOBAL_TENANT_ID, type ApplicationStatus, type ClientAuthentication, type ClientType, type ID_TOKEN_ALGORITHMS } from '../domain/constants.js';
import type { SamlAssertionConsumerService, SamlAttributeMapping, SamlNameIdFormat } from '../domain/saml.js';
import type { bootstrapSchema } from './schema.js';

/** The document as the file is written: what the bootstrap schema reads. */
type ExportedDocument = z.input<typeof bootstrapSchema>;

/** An environment variable the import of an export reads. */
export interface ExportedVariable {
  name: string;
  /** What it holds, for the file's header. */
  holds: string;
  /** Required: the import stops, naming it, while it is unset. Else the product makes one. */
  required: boolean;
}

export interface ConfigurationExport {
  /** The bootstrap file: its header lists the variables. */
  yaml: string;
  variables: ExportedVariable[];
}

// The stored settings are read as the product reads them (an unknown key dropped, a missing one
// at its default), so the file holds what is in force and passes the import's strict check.
const STORED_SETTINGS = { GroupDomains: groupDomainsSchema, Lockout: lockoutSettingsSchema, PasswordPolicy: passwordPolicySchema, TokenLifetimes: tokenLifetimesSchema };

/** An environment variable's name made of an id: upper case, anything but letters and digits as `_`. */
const variablePart = (id: string) => id.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '') || 'X';

/**
 * The whole configuration of a deployment as a bootstrap file, which an empty deployment (or this
 * one) applies to hold the same configuration: areas, tenants (parents first, with their MFA
 * switches), applications (protocol settings, roles and scopes, disclaimer), groups and the roles
 * they hold, the security settings saved, webhook endpoints. Users, group members, tokens, keys and
 * password hashes are never in it; a secret is written as a `${env:NAME}` reference, listed in the
 * header. Addresses under `publicUrl` are written `${publicUrl}/…`, so the file moves to another
 * address. Read in one snapshot of the database.
 */
export async function exportConfiguration(dataSource: DataSource, options: { publicUrl: string }): Promise<ConfigurationExport> {
  return dataSource.transaction('REPEATABLE READ', (em) => new Exporter(em, options.publicUrl).run());
}

interface TenantRow {
  id: string;
  title: string;
  area: string;
  parent_id: string | null;
  tax_number: string | null;
  vies_number: string | null;
  group_alias: string | null;
  creation_type: 'Auto' | 'Manual';
  required_two_mode_authentification: boolean;
  phishing_resistant_only: boolean;
}

interface MembershipRow {
  owner_id: string;
  tenant_id: string;
  is_inheritable: boolean;
  application_id: string;
  role_name: string;
}

class Exporter {
  private readonly variables: ExportedVariable[] = [];
  /** How each tenant is named in the file: its title while no other tenant has it, else its id. */
  private readonly tenantRefs = new Map<string, string>();
  private readonly base: string;

  constructor(
    private readonly em: EntityManager,
    publicUrl: string,
  ) {
    this.base = publicUrl.replace(/\/+$/, '');
  }

  async run(): Promise<ConfigurationExport> {
    const document: ExportedDocument = {
      areas: await this.areas(),
      tenants: await this.tenants(),
      applications: await this.applications(),
      groups: await this.groups(),
    };
    const security = await this.security();
    if (security) document.security = security;
    document.webhooks = await this.webhooks();
    const file = new YAML.Document(this.portable(document));
    file.commentBefore = this.header();
    return { yaml: file.toString({ lineWidth: 0 }), variables: this.variables };
  }

  private header(): string {
    const lines = [
      ' Gatehouse configuration: a bootstrap file (IDP_BOOTSTRAP) that an empty deployment applies at',
      ' start to hold this configuration; applied to a deployment that has some of it, it creates what',
      ' is missing and updates what differs, and removes nothing.',
      ' ${publicUrl} stands for the public URL (PUBLIC_URL) of the deployment that applies it.',
      ' Not in it: users, group members, application owners, personal access tokens, SCIM tokens,',
      ' signing keys, uploaded application icons.',
    ];
    if (!this.variables.length) return [...lines, ' It holds no secret: the import needs no environment variable.'].join('\n');
    const width = Math.max(...this.variables.map((variable) => variable.name.length));
    lines.push(
      '',
      ' Secrets are not written here: ${env:NAME} is read from the environment of the deployment',
      ' that applies the file. It needs these variables:',
      ...this.variables.map((variable) => `   ${variable.name.padEnd(width)}  ${variable.holds}${variable.required ? ' (required: unset, the import stops and names it)' : ''}`),
    );
    if (this.variables.some((variable) => !variable.required)) {
      lines.push(
        ' A webhook signing secret left unset: a new endpoint gets a secret of its own (rotate it in the',
        ' console to read it, then give it to the receiver); an existing endpoint keeps its own.',
      );
    }
    return lines.join('\n');
  }

  /** A `${env:NAME}` reference to a new variable, its name unique in the file. */
  private reference(wanted: string, holds: string, required: boolean): string {
    let name = wanted;
    for (let n = 2; this.variables.some((variable) => variable.name === name); n++) name = `${wanted.replace(/_SECRET$/, '')}_${n}_SECRET`;
    this.variables.push({ name, holds, required });
    return `\${env:${name}}`;
  }

  /** Every string under this deployment's public URL written `${publicUrl}…`. */
  private portable<T>(value: T): T {
    if (typeof value === 'string') {
      const rest = value.slice(this.base.length);
      return (value.startsWith(this.base) && (rest === '' || /^[/?#]/.test(rest)) ? `\${publicUrl}${rest}` : value) as T;
    }
    if (Array.isArray(value)) return value.map((item: unknown) => this.portable(item)) as T;
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, this.portable(field)])) as T;
    return value;
  }

  private async areas(): Promise<ExportedDocument['areas']> {
    const rows: Array<{ name: string; is_default: boolean; is_system: boolean }> = await this.em.query('SELECT name, is_default, is_system FROM areas ORDER BY name');
    return rows.map((row) => ({ name: row.name, default: row.is_default, system: row.is_system }));
  }

  /** Every tenant but Global, each after its parent (siblings by title). */
  private async tenants(): Promise<ExportedDocument['tenants']> {
    const rows: TenantRow[] = await this.em.query(
      `SELECT t.id, t.title, a.name AS area, t.parent_id, t.tax_number, t.vies_number, t.group_alias, t.creation_type,
              t.required_two_mode_authentification, t.phishing_resistant_only
         FROM tenants t JOIN areas a ON a.id = t.area_id
        WHERE t.id <> $1
        ORDER BY t.title, t.id`,
      [GLOBAL_TENANT_ID],
    );
    const titles = new Map<string, number>();
    for (const row of rows) titles.set(row.title, (titles.get(row.title) ?? 0) + 1);
    for (const row of rows) this.tenantRefs.set(row.id, titles.get(row.title) === 1 && row.title !== 'Global' ? row.title : row.id);
    this.tenantRefs.set(GLOBAL_TENANT_ID, 'Global');

    const known = new Set(rows.map((row) => row.id));
    const children = new Map<string | null, TenantRow[]>();
    for (const row of rows) {
      const parent = row.parent_id && known.has(row.parent_id) ? row.parent_id : null;
      children.set(parent, [...(children.get(parent) ?? []), row]);
    }
    const ordered: TenantRow[] = [];
    const visit = (parent: string | null) => {
      for (const row of children.get(parent) ?? []) {
        ordered.push(row);
        visit(row.id);
      }
    };
    visit(null);
    return ordered.map((row) => ({
      id: row.id,
      title: row.title,
      area: row.area,
      ...(row.parent_id && known.has(row.parent_id) ? { parent: this.tenantRefs.get(row.parent_id)! } : {}),
      ...(row.tax_number !== null ? { taxNumber: row.tax_number } : {}),
      ...(row.vies_number !== null ? { viesNumber: row.vies_number } : {}),
      ...(row.group_alias !== null ? { groupAlias: row.group_alias } : {}),
      creation: row.creation_type,
      requiredTwoModeAuthentification: row.required_two_mode_authentification,
      phishingResistantOnly: row.phishing_resistant_only,
    }));
  }

  private async applications(): Promise<ExportedDocument['applications']> {
    const apps: ApplicationRow[] = await this.em.query(`SELECT ${APPLICATION_COLUMNS} FROM applications ORDER BY id`);
    const roles: Array<{ id: string; application_id: string; name: string; description: string | null; by_hierarchy: boolean; operation_request_visibility: boolean; service_manager_visibility: boolean }> =
      await this.em.query('SELECT id, application_id, name, description, by_hierarchy, operation_request_visibility, service_manager_visibility FROM roles ORDER BY application_id, name');
    const scopes: Array<{ role_id: string; scope: string }> = await this.em.query('SELECT role_id, scope FROM role_scopes ORDER BY scope');
    const audiences: Array<{ application_id: string; audience_id: string }> = await this.em.query(
      'SELECT application_id, audience_id FROM application_exchange_audiences ORDER BY audience_id',
    );
    const disclaimers: Array<{ application_id: string; content: Record<string, string> }> = await this.em.query(
      'SELECT DISTINCT ON (application_id) application_id, content FROM disclaimers ORDER BY application_id, version DESC',
    );
    const samlSettings: SamlRow[] = await this.em.query(`SELECT ${SAML_COLUMNS} FROM application_saml_settings`);
    return apps.map((app) => {
      const disclaimer = disclaimers.find((row) => row.application_id === app.id)?.content;
      return {
        id: app.id,
        name: app.name,
        displayName: app.display_name,
        ...(app.description !== null ? { description: app.description } : {}),
        type: app.client_type,
        ...(app.has_secret
          ? { secret: this.reference(`GATEHOUSE_APP_${variablePart(app.id)}_SECRET`, `client secret of application ${app.id}`, true) }
          : {}),
        enabled: app.enabled,
        firstParty: app.is_first_party,
        redirectUris: app.redirect_uris,
        postLogoutRedirectUris: app.post_logout_redirect_uris,
        ...(app.backchannel_logout_uri !== null ? { backchannelLogoutUri: app.backchannel_logout_uri } : {}),
        grantTypes: app.grant_types as ExportedApplication['grantTypes'],
        deviceFlow: app.device_flow,
        requireDpop: app.require_dpop,
        requirePar: app.require_par,
        requireSignedRequestObject: app.require_signed_request_object,
        clientAuthentication: app.client_authentication,
        ...(app.jwks !== null ? { jwks: app.jwks } : {}),
        ...(app.jwks_uri !== null ? { jwksUri: app.jwks_uri } : {}),
        fapi2: app.fapi2,
        tokenExchangeAudiences: audiences.filter((row) => row.application_id === app.id).map((row) => row.audience_id),
        idTokenAlgorithm: app.id_token_signed_response_alg,
        ...(app.private_url !== null ? { privateUrl: app.private_url } : {}),
        ...(app.public_url !== null ? { publicUrl: app.public_url } : {}),
        ...(app.icon !== null ? { icon: app.icon } : {}),
        status: app.status,
        prerelease: app.prerelease,
        hideInUserList: app.hide_in_user_list,
        ...(disclaimer ? { disclaimer: Object.fromEntries(Object.entries(disclaimer).sort(([a], [b]) => a.localeCompare(b))) } : {}),
        ...(app.protocol === 'saml' ? samlPart(samlSettings.find((row) => row.application_id === app.id)) : {}),
        roles: roles
          .filter((role) => role.application_id === app.id)
          .map((role) => ({
            name: role.name,
            ...(role.description !== null ? { description: role.description } : {}),
            byHierarchy: role.by_hierarchy,
            operationRequestVisibility: role.operation_request_visibility,
            serviceManagerVisibility: role.service_manager_visibility,
            scopes: scopes.filter((scope) => scope.role_id === role.id).map((scope) => scope.scope),
          })),
      };
    });
  }

  /** Groups with the roles they hold, by tenant and application; their members are users, never exported. */
  private async groups(): Promise<ExportedDocument['groups']> {
    const groups: Array<{ id: string; name: string; description: string | null; area: string }> = await this.em.query(
      'SELECT g.id, g.name, g.description, a.name AS area FROM groups g JOIN areas a ON a.id = g.area_id ORDER BY a.name, g.name',
    );
    const memberships: MembershipRow[] = await this.em.query(
      `SELECT m.group_id AS owner_id, m.tenant_id, m.is_inheritable, r.application_id, r.name AS role_name
         FROM tenant_members m
         JOIN tenant_member_roles mr ON mr.tenant_member_id = m.id
         JOIN roles r ON r.id = mr.role_id
        WHERE m.group_id IS NOT NULL
        ORDER BY r.application_id, r.name`,
    );
    return groups.map((group) => ({
      name: group.name,
      area: group.area,
      ...(group.description !== null ? { description: group.description } : {}),
      memberships: this.membershipsOf(memberships.filter((row) => row.owner_id === group.id)),
    }));
  }

  /** One entry per tenant and application, sorted by tenant then application. */
  private membershipsOf(rows: MembershipRow[]) {
    const entries = new Map<string, { tenant: string; application: string; roles: string[]; inheritable: boolean }>();
    for (const row of rows) {
      const tenant = this.tenantRefs.get(row.tenant_id) ?? row.tenant_id;
      const key = `${tenant}\u0000${row.application_id}`;
      const entry = entries.get(key) ?? { tenant, application: row.application_id, roles: [], inheritable: row.is_inheritable };
      entry.roles.push(row.role_name);
      entries.set(key, entry);
    }
    return [...entries.values()].sort((a, b) => a.tenant.localeCompare(b.tenant) || a.application.localeCompare(b.application));
  }

  /** The settings a God user saved (those never saved follow the product's defaults and are left out). */
  private async security(): Promise<ExportedDocument['security']> {
    const rows: Array<{ title: string; body: unknown }> = await this.em.query('SELECT title, body FROM security_configs WHERE title = ANY($1) ORDER BY title', [
      [...SECURITY_SETTINGS],
    ]);
    const security: Record<string, unknown> = {};
    for (const row of rows) {
      const parsed = STORED_SETTINGS[row.title as keyof typeof STORED_SETTINGS].safeParse(row.body ?? {});
      // One that no longer validates is not in force (its defaults are): left out like one never saved.
      if (parsed.success) security[row.title] = parsed.data;
    }
    return Object.keys(security).length ? (security as ExportedDocument['security']) : undefined;
  }

  private async webhooks(): Promise<ExportedDocument['webhooks']> {
    const rows: Array<{ id: string; url: string; description: string | null; events: string[]; application_id: string | null; enabled: boolean }> = await this.em.query(
      'SELECT id, url, description, events, application_id, enabled FROM webhook_endpoints ORDER BY created_at, id',
    );
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      ...(row.description !== null ? { description: row.description } : {}),
      events: row.events as NonNullable<ExportedDocument['webhooks']>[number]['events'],
      ...(row.application_id !== null ? { application: row.application_id } : {}),
      enabled: row.enabled,
      secret: this.reference(`GATEHOUSE_WEBHOOK_${variablePart(row.id.slice(0, 8))}_SECRET`, `signing secret of webhook ${row.url} (${row.id})`, false),
    }));
  }
}

type ExportedApplication = NonNullable<ExportedDocument['applications']>[number];

// Every column but the uploaded icon's bytes, which the file leaves out.
const APPLICATION_COLUMNS = `id, name, display_name, description, client_type, client_secret_encrypted IS NOT NULL AS has_secret, enabled, is_first_party,
  redirect_uris, post_logout_redirect_uris, backchannel_logout_uri, grant_types, device_flow, require_dpop, require_par,
  require_signed_request_object, client_authentication, jwks, jwks_uri, fapi2, id_token_signed_response_alg, private_url,
  public_url, icon, status, prerelease, hide_in_user_list, protocol`;

const SAML_COLUMNS = `application_id, entity_id, assertion_consumer_services, single_logout_url, name_id_format, attribute_mapping,
  certificate, want_authn_requests_signed, encrypt_assertions, default_relay_state`;

/** A SAML application's protocol and settings as the bootstrap file declares them (the protocol alone while it has none). */
function samlPart(saml: SamlRow | undefined) {
  if (!saml) return { protocol: 'saml' as const };
  return {
    protocol: 'saml' as const,
    saml: {
      entityId: saml.entity_id,
      assertionConsumerServices: saml.assertion_consumer_services,
      ...(saml.single_logout_url !== null ? { singleLogoutUrl: saml.single_logout_url } : {}),
      nameIdFormat: saml.name_id_format,
      attributes: saml.attribute_mapping,
      ...(saml.certificate !== null ? { certificate: saml.certificate } : {}),
      wantAuthnRequestsSigned: saml.want_authn_requests_signed,
      encryptAssertions: saml.encrypt_assertions,
      ...(saml.default_relay_state !== null ? { defaultRelayState: saml.default_relay_state } : {}),
    },
  };
}

/** A SAML application's settings, as stored (public: entity id, addresses, its certificate). */
interface SamlRow {
  application_id: string;
  entity_id: string;
  assertion_consumer_services: SamlAssertionConsumerService[];
  single_logout_url: string | null;
  name_id_format: SamlNameIdFormat;
  attribute_mapping: SamlAttributeMapping[];
  certificate: string | null;
  want_authn_requests_signed: boolean;
  encrypt_assertions: boolean;
  default_relay_state: string | null;
}

interface ApplicationRow {
  id: string;
  protocol: 'oidc' | 'saml';
  name: string;
  display_name: string;
  description: string | null;
  client_type: ClientType;
  has_secret: boolean;
  enabled: boolean;
  is_first_party: boolean;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  grant_types: string[];
  device_flow: boolean;
  require_dpop: boolean;
  require_par: boolean;
  require_signed_request_object: boolean;
  client_authentication: ClientAuthentication;
  jwks: ExportedApplication['jwks'] | null;
  jwks_uri: string | null;
  fapi2: boolean;
  id_token_signed_response_alg: (typeof ID_TOKEN_ALGORITHMS)[number];
  private_url: string | null;
  public_url: string | null;
  icon: string | null;
  status: ApplicationStatus;
  prerelease: boolean;
  hide_in_user_list: boolean;
}
