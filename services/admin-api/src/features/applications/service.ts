import { randomBytes, randomUUID } from 'node:crypto';
import { AppError, IDENTITY_APPLICATION_ID, applicationIcon, homeApplications, protocolErrors, toListQuery, type AppContext, type ApplicationStatus, type FieldError, type ProtocolSettings } from '@gatehouse/core';
import type {
  ApplicationOwner,
  ApplicationRoles,
  ApplicationSecret,
  HomeInfo,
  applicationSchema,
  applicationSummarySchema,
  applicationsRoutes,
  savedApplicationSchema,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import { writeSystemLog, type SystemLogEntry } from '../../audit/system-log.js';
import { enforce, mayEditApplication, type ApplicationFacts, type Authority } from '@gatehouse/core/access';
import { callerAuthority } from '../../access.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { Queryable } from '../../db.js';
import { findUserName } from '../directory/lookups.js';
import { changesOf } from './changes.js';
import { entityIdRace, samlSettingsErrors, storeSaml } from './saml-service.js';
import { checkedFields, defaultIdFor, identifierErrors, type ApplicationChangesBody, type NewApplicationBody } from './fields.js';

import {
  APPLICATION_ROLE_SORT,
  APPLICATION_SORT,
  applicationsByIds,
  deleteApplication,
  deleteOwner,
  existingUsers,
  findApplication,
  findClashes,
  insertApplication,
  insertOwners,
  listApplicationRoles,
  listApplications,
  listOwners,
  updateApplication,
  updateSecret,
  updateStatus,
  type ApplicationDetailRow,
  type ApplicationFieldsRecord,
  type ApplicationOwnerRow,
  type ApplicationRow,
} from './repository.js';

type ApplicationRolesQuery = z.output<typeof applicationsRoutes.roles.query>;
type ApplicationListQuery = z.output<typeof applicationsRoutes.list.query>;
// What the handlers answer, before the response schemas turn dates into text.
type ApplicationSummary = z.input<typeof applicationSummarySchema>;
type ApplicationDetail = z.input<typeof applicationSchema>;
type SavedApplication = z.input<typeof savedApplicationSchema>;

const notFound = () => new AppError('applications.not_found', 404);
const fieldError = (field: string, code: FieldError['code'], status = 400) => new AppError(code, status, {}, [{ field, code }]);

/** A shared secret: 256 random bits, as the token endpoint's Basic authentication carries them. */
const newSecret = () => randomBytes(32).toString('base64url');

export interface ApplicationsServiceOptions {
  /** Id of the client portal application, where customers without the Identity application are sent. */
  clientPortalAppId?: string | null;
}

/**
 * The applications: as the launcher and the console's role pickers see them, and as the console
 * manages them. Every change is stored with its system log row in one transaction and, once
 * committed, announced to every node so that the provider's cached client changes at once.
 */
export class ApplicationsService {
  constructor(
    private readonly context: AppContext,
    private readonly options: ApplicationsServiceOptions = {},
  ) {}

  /** The home launcher: the caller's applications with access and favourite flags. */
  async homeInfo(caller: Caller): Promise<HomeInfo> {
    const items = await homeApplications(this.context, caller.userId);
    return { applications: { items, count: items.length }, clientPortalAppId: this.options.clientPortalAppId ?? null };
  }

  /** The roles of every application (or of one), for role pickers. */
  async roles(query: ApplicationRolesQuery): Promise<ApplicationRoles> {
    const { rows, count } = await listApplicationRoles(this.context.dataSource, toListQuery(query, APPLICATION_ROLE_SORT), query.applicationId ?? null);
    const items = rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      byHierarchy: r.by_hierarchy,
      applicationId: r.application_id,
      applicationName: r.application_name,
    }));
    return { items, count };
  }

  /** An application's icon, else the default one. */
  icon(appId: string): ReturnType<typeof applicationIcon> {
    return applicationIcon(this.context, appId);
  }

  async list(caller: Caller, query: ApplicationListQuery): Promise<{ items: ApplicationSummary[]; count: number }> {
    const { rows, count } = await listApplications(this.context.dataSource, toListQuery(query, APPLICATION_SORT), {
      callerId: caller.userId,
      status: query.status ?? null,
    });
    return { items: rows.map((row) => this.summary(row)), count };
  }

  async get(caller: Caller, id: string): Promise<ApplicationDetail> {
    const row = await findApplication(this.context.dataSource, id, caller.userId);
    if (!row) throw notFound();
    return this.detail(row, await listOwners(this.context.dataSource, id));
  }

  /**
   * Creates the application, owned by its creator (and the owners named). A confidential one gets
   * a shared secret, stored encrypted and answered this once.
   */
  async create(caller: Caller, body: NewApplicationBody): Promise<SavedApplication> {
    // A SAML application signs in with no secret of its own: the identity provider's client for it has one nobody is given.
    const saml = body.protocol === 'saml';
    const samlErrors = body.saml ? samlSettingsErrors(body.saml, 'saml.') : [];
    const fields = await checkedFields(saml ? { ...body, type: 'public' } : body, [...identifierErrors(body.id, body.name), ...samlErrors]);
    const sharedSecret = fields.clientType === 'confidential' ? newSecret() : null;
    const id = await this.context.dataSource.transaction(async (em) => {
      await this.checkProtocol(em, settingsOf(fields), { isProductOwn: false, authenticationSent: true });
      const id = await freeId(em, body.id, body.name);
      const owners = await knownUsers(em, [caller.userId, ...body.ownerIds], 'ownerIds');
      const clientSecretEncrypted = sharedSecret === null ? null : this.context.secrets.encrypt(sharedSecret);
      await insertApplication(em, { ...fields, id, name: body.name, clientSecretEncrypted });
      if (saml) await storeSaml(em, id, body.saml, 'saml.entityId');
      await insertOwners(em, id, owners);
      await this.log(em, caller, 'CreateApplication', {
        applicationId: id,
        name: body.name,
        displayName: body.displayName,
        protocol: body.protocol,
        ...(body.saml ? { entityId: body.saml.entityId } : {}),
        type: fields.clientType,
        redirectUris: body.redirectUris,
        deviceFlow: body.deviceFlow,
        requireDpop: fields.requireDpop,
        requirePar: fields.requirePar,
        requireSignedRequestObject: body.requireSignedRequestObject,
        clientAuthentication: fields.clientAuthentication,
        jwksUri: body.jwksUri,
        fapi2: body.fapi2,
        tokenExchangeAudiences: fields.exchangeAudiences,
        owners,
      });
      return id;
    }).catch((error: unknown) => entityIdRace(this.context, error, body.saml?.entityId, 'saml.entityId'));
    this.announce(body.name);
    return { ...(await this.get(caller, id)), sharedSecret };
  }

  /**
   * Changes the General properties. Made confidential, the application gets a shared secret
   * (answered this once); made public, it loses its secret.
   */
  async update(caller: Caller, id: string, body: ApplicationChangesBody): Promise<SavedApplication> {
    const readOnly = (['id', 'name'] as const).filter((field) => body[field] !== undefined);
    const fields = await checkedFields(
      body,
      readOnly.map((field) => ({ field, code: 'applications.read_only_field', params: { field } })),
    );
    const { name, sharedSecret } = await this.context.dataSource.transaction(async (em) => {
      const current = await lockedApplication(em, caller, id);
      // A SAML application has no redirect URIs and no secret; an OpenID Connect one needs its private URL and a redirect URI.
      if (current.protocol === 'saml') fields.clientType = 'public';
      else if (fields.privateUrl === null) throw fieldError('privateUrl', 'applications.private_url_required');
      else if (fields.redirectUris.length === 0) throw fieldError('redirectUris', 'applications.redirect_uris_required');
      if (fields.clientType !== current.client_type && this.isSystem(current)) throw fieldError('type', 'applications.system_type', 409);
      await this.checkProtocol(em, settingsOf(fields, current), { id, isProductOwn: this.isSystem(current), authenticationSent: body.clientAuthentication !== undefined });
      const changed = Object.keys(changesOf(current, fields));
      enforce(mayEditApplication(await this.authority(em, caller), this.facts(caller, current), { kind: 'update', fields: changed }));
      const sharedSecret = fields.clientType === 'confidential' && !current.has_secret ? newSecret() : null;
      const clientSecretEncrypted = fields.clientType === 'public' ? null : sharedSecret === null ? undefined : this.context.secrets.encrypt(sharedSecret);
      await updateApplication(em, id, { ...fields, clientSecretEncrypted });
      const changes = changesOf(current, fields);
      if (sharedSecret !== null) changes.secret = 'generated';
      if (Object.keys(changes).length) await this.log(em, caller, 'UpdateApplication', { applicationId: id, name: current.name, changes });
      return { name: current.name, sharedSecret };
    });
    this.announce(name);
    return { ...(await this.get(caller, id)), sharedSecret };
  }

  /** Running, Maintenance (its users are warned) or Stopped (no sign-in starts or finishes). */
  async setStatus(caller: Caller, id: string, status: ApplicationStatus): Promise<ApplicationSummary> {
    const row = await this.context.dataSource.transaction(async (em) => {
      const current = await lockedApplication(em, caller, id);
      // Stopping the console would leave nobody able to sign in to start it again.
      if (status === 'Stopped' && current.name === this.context.config.oidc.adminClientId) {
        throw new AppError('applications.console_not_stoppable', 409);
      }
      if (current.status === status) return current;
      await updateStatus(em, id, status);
      await this.log(em, caller, 'ChangeApplicationStatus', { applicationId: id, name: current.name, status, previous: current.status });
      return (await findApplication(em, id, caller.userId))!;
    });
    this.announce(row.name);
    return this.summary(row);
  }

  /** Deletes the application with its roles, by one of its owners; never one of the product's own. */
  async remove(caller: Caller, id: string): Promise<void> {
    const name = await this.context.dataSource.transaction(async (em) => {
      const current = await lockedApplication(em, caller, id);
      enforce(mayEditApplication(await this.authority(em, caller), this.facts(caller, current), { kind: 'delete' }));
      await deleteApplication(em, id);
      await this.log(em, caller, 'DeleteApplication', { applicationId: id, name: current.name, displayName: current.display_name });
      return current.name;
    });
    this.announce(name);
    // The roles went with it, and every grant of them.
    this.context.broadcast.publish('roles.changed', {});
  }

  /** Replaces the shared secret of a confidential application; the old one stops working at once. */
  async regenerateSecret(caller: Caller, id: string): Promise<ApplicationSecret> {
    const sharedSecret = newSecret();
    const name = await this.context.dataSource.transaction(async (em) => {
      const current = await lockedApplication(em, caller, id);
      if (current.client_type !== 'confidential') throw new AppError('applications.public_no_secret', 409);
      await updateSecret(em, id, this.context.secrets.encrypt(sharedSecret));
      await this.log(em, caller, 'RegenerateApplicationSecret', { applicationId: id, name: current.name });
      return current.name;
    });
    this.announce(name);
    return { sharedSecret };
  }

  async addOwner(caller: Caller, id: string, userId: string): Promise<ApplicationOwner[]> {
    return this.context.dataSource.transaction(async (em) => {
      const current = await lockedApplication(em, caller, id);
      const [user] = await knownUsers(em, [userId], 'userId');
      if ((await insertOwners(em, id, [user!])) === 0) throw fieldError('userId', 'applications.already_owner', 409);
      await this.log(em, caller, 'AddApplicationOwner', { applicationId: id, name: current.name, ownerId: userId, ownerUserName: await findUserName(em, userId) });
      return (await listOwners(em, id)).map(presentOwner);
    });
  }

  async removeOwner(caller: Caller, id: string, userId: string): Promise<ApplicationOwner[]> {
    return this.context.dataSource.transaction(async (em) => {
      const current = await lockedApplication(em, caller, id);
      if (!(await deleteOwner(em, id, userId))) throw new AppError('applications.not_an_owner', 404);
      await this.log(em, caller, 'RemoveApplicationOwner', { applicationId: id, name: current.name, ownerId: userId, ownerUserName: await findUserName(em, userId) });
      return (await listOwners(em, id)).map(presentOwner);
    });
  }

  /**
   * The protocol rules (PAR, JAR, private_key_jwt, FAPI 2.0, token exchange) on the settings as they
   * will be stored. The FAPI 2.0 profile turns on pushed requests and DPoP in `fields` itself.
   */
  private async checkProtocol(db: Queryable, settings: ProtocolSettings & { fields: ApplicationFieldsRecord }, facts: { id?: string; isProductOwn: boolean; authenticationSent: boolean }): Promise<void> {
    const named = settings.exchangeAudiences.length ? await applicationsByIds(db, settings.exchangeAudiences) : [];
    const errors = protocolErrors(settings, {
      ...facts,
      knownAudiences: new Set(named.map((app) => app.id)),
      productOwnAudiences: new Set(named.filter((app) => this.isSystem(app)).map((app) => app.id)),
    });
    if (errors.length) throw new AppError('errors.validation', 400, {}, errors);
    if (settings.fapi2) {
      settings.fields.requirePar = true;
      settings.fields.requireDpop = true;
    }
  }

  private authority(db: Queryable, caller: Caller): Promise<Authority> {
    return callerAuthority(db, caller, { areaIds: null });
  }

  /** The application as the authority rules see it. */
  private facts(caller: Caller, row: Pick<ApplicationRow, 'id' | 'name' | 'user_is_owner'>): ApplicationFacts {
    return { id: row.id, isProductOwn: this.isSystem(row), ownerIds: row.user_is_owner ? [caller.userId] : [] };
  }

  /** The Identity application, the portal and the console: the product's own, never deleted. */
  private isSystem(row: Pick<ApplicationRow, 'id' | 'name'>): boolean {
    const { portalClientId, adminClientId } = this.context.config.oidc;
    return row.id === IDENTITY_APPLICATION_ID || row.name === portalClientId || row.name === adminClientId;
  }

  /** Drops the cached client here and on every other node: the provider uses the change at once. */
  private announce(clientId: string): void {
    this.context.broadcast.publish('application.changed', { clientId });
  }

  private async log(db: Queryable, caller: Caller, operation: string, metadata: SystemLogEntry['metadata']): Promise<void> {
    await writeSystemLog(db, { operation, userId: caller.userId, userName: await findUserName(db, caller.userId), metadata });
  }

  private summary(row: ApplicationRow): ApplicationSummary {
    return {
      id: row.id,
      name: row.name,
      displayName: row.display_name,
      description: row.description,
      type: row.client_type,
      status: row.status,
      enabled: row.enabled,
      prerelease: row.prerelease,
      hideInUserList: row.hide_in_user_list,
      privateUrl: row.private_url,
      publicUrl: row.public_url,
      protocol: row.protocol,
      modifiedOn: row.modified_on,
      userIsOwner: row.user_is_owner,
      system: this.isSystem(row),
    };
  }

  private detail(row: ApplicationDetailRow, owners: ApplicationOwnerRow[]): ApplicationDetail {
    return {
      ...this.summary(row),
      redirectUris: row.redirect_uris,
      postLogoutRedirectUris: row.post_logout_redirect_uris,
      icon: row.icon,
      hasIconImage: row.has_icon_image,
      hasSecret: row.has_secret,
      deviceFlow: row.device_flow,
      requireDpop: row.require_dpop,
      requirePar: row.require_par,
      requireSignedRequestObject: row.require_signed_request_object,
      clientAuthentication: row.client_type === 'public' ? 'none' : row.client_authentication,
      jwks: row.jwks as ApplicationDetail['jwks'],
      jwksUri: row.jwks_uri,
      fapi2: row.fapi2,
      tokenExchangeAudiences: row.exchange_audiences,
      owners: owners.map(presentOwner),
    };
  }
}

/**
 * The protocol settings a change leaves: what it sends, else what is stored (a new application:
 * the defaults), with the record to store beside them.
 */
function settingsOf(fields: ApplicationFieldsRecord, current?: ApplicationDetailRow): ProtocolSettings & { fields: ApplicationFieldsRecord } {
  return {
    fields,
    clientType: fields.clientType,
    clientAuthentication: fields.clientAuthentication ?? current?.client_authentication ?? 'client_secret_basic',
    requireSignedRequestObject: fields.requireSignedRequestObject ?? current?.require_signed_request_object ?? false,
    jwks: fields.jwks === undefined ? (current?.jwks ?? null) : fields.jwks,
    jwksUri: fields.jwksUri === undefined ? (current?.jwks_uri ?? null) : fields.jwksUri,
    fapi2: fields.fapi2 ?? current?.fapi2 ?? false,
    exchangeAudiences: fields.exchangeAudiences ?? current?.exchange_audiences ?? [],
  };
}

function presentOwner(row: ApplicationOwnerRow): ApplicationOwner {
  return { id: row.id, userName: row.user_name, email: row.email, firstName: row.first_name, lastName: row.last_name };
}

async function lockedApplication(db: Queryable, caller: Caller, id: string): Promise<ApplicationDetailRow> {
  const row = await findApplication(db, id, caller.userId, true);
  if (!row) throw notFound();
  return row;
}

/**
 * The id a new application gets, once its id and name are known to be free (whatever the case):
 * the one given, else its name when that fits an id and is free, else a generated one.
 */
async function freeId(db: Queryable, id: string | null, name: string): Promise<string> {
  const clashes = await findClashes(db, id ?? defaultIdFor(name), name);
  if (id !== null && clashes.id && clashes.name) {
    throw new AppError('errors.application_id_and_name_in_use', 409, {}, [
      { field: 'id', code: 'errors.application_id_in_use' },
      { field: 'name', code: 'errors.application_name_in_use' },
    ]);
  }
  if (id !== null && clashes.id) throw fieldError('id', 'errors.application_id_in_use', 409);
  if (clashes.name) throw fieldError('name', 'errors.application_name_in_use', 409);
  return id ?? (clashes.id ? null : defaultIdFor(name)) ?? randomUUID();
}

/** The users named (each once), or a 400 on `field` when one does not exist. */
async function knownUsers(db: Queryable, userIds: string[], field: string): Promise<string[]> {
  const wanted = [...new Set(userIds.map((userId) => userId.toLowerCase()))];
  const found = new Set(await existingUsers(db, wanted));
  if (wanted.some((userId) => !found.has(userId))) throw fieldError(field, 'applications.owner_not_found');
  return wanted;
}
