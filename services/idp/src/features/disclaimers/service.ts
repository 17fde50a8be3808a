import {
  AppError,
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  IDENTITY_APPLICATION_ID,
  resolveEffectiveRoles,
  type AppContext,
} from '@gatehouse/core';
import { pathOf, portalApplicationsRoutes, type DisclaimerGate, type DisclaimerItem, type DisclaimersPage } from '@gatehouse/contracts';
import type { GateCaller } from './koa-gate-auth.js';
import {
  findApplicationDisclaimer,
  findDisclaimedApplications,
  recordAcceptance,
  type ApplicationDisclaimerRow,
} from './repository.js';

/** The roles of the Identity application that open the administration (the console's entry rule). */
const ADMINISTRATION_ROLES = new Set(['Administrator', 'God']);

/** Which clients are first-party applications (the provider's client registry). */
export interface FirstPartyClients {
  find(clientId: string): Promise<{ isFirstParty: boolean } | undefined>;
}

type Disclaimed = ApplicationDisclaimerRow & { disclaimer_id: string; version: number; content: Record<string, string> };

const hasDisclaimer = (row: ApplicationDisclaimerRow): row is Disclaimed => row.disclaimer_id !== null;

/**
 * A disclaimer's text in `language`, else in English (the fallback), else in French (the
 * default), else in the first language it was written in; with the language it is written in and
 * every language it exists in, so that a reader is told when it is not in theirs.
 */
export function disclaimerText(content: Record<string, string>, language: string): { text: string; textLanguage: string | null; languages: string[] } {
  const languages = Object.keys(content).filter((key) => typeof content[key] === 'string');
  const textLanguage = [language, FALLBACK_LANGUAGE, DEFAULT_LANGUAGE].find((key) => languages.includes(key)) ?? languages[0] ?? null;
  return { text: textLanguage ? content[textLanguage]! : '', textLanguage, languages };
}

function itemOf(row: Disclaimed, language: string): DisclaimerItem {
  return {
    appInfoId: row.app_id,
    appName: row.app_name,
    displayAppName: row.display_name,
    privateUrl: row.private_url,
    icon: row.has_icon ? pathOf(portalApplicationsRoutes.icon, { appId: row.app_id }) : null,
    version: row.version,
    ...disclaimerText(row.content, language),
    accepted: row.accepted_at !== null,
    onAcceptedDate: row.accepted_at ? new Date(row.accepted_at).toISOString() : null,
  };
}

function gateOf(row: ApplicationDisclaimerRow, language: string): DisclaimerGate {
  // Nothing to accept: the application's users are never stopped.
  if (!hasDisclaimer(row)) return { accepted: true, onAcceptedDate: null, version: null, text: null, textLanguage: null, languages: [] };
  const { accepted, onAcceptedDate, version, text, textLanguage, languages } = itemOf(row, language);
  return { accepted, onAcceptedDate, version, text, textLanguage, languages };
}

/** The spec's order: accepted first, then by acceptance date ascending; the display name settles the rest. */
function byAcceptance(a: DisclaimerItem, b: DisclaimerItem): number {
  if (a.accepted !== b.accepted) return a.accepted ? -1 : 1;
  const dates = (a.onAcceptedDate ?? '').localeCompare(b.onAcceptedDate ?? '');
  return dates || a.displayAppName.localeCompare(b.displayAppName) || a.appInfoId.localeCompare(b.appInfoId);
}

/**
 * Per-application terms a signed-in user accepts: the portal's list, and the gate an application
 * (or the console) asks before letting the user in. A new version of a disclaimer is a new row, so
 * it is not accepted until the user accepts it again.
 */
export class DisclaimersService {
  constructor(
    private readonly context: AppContext,
    private readonly clients: FirstPartyClients,
  ) {}

  /** The disclaimers of the applications `userId` may open, in the spec's order, one page of them. */
  async list(userId: string, language: string, page: { skip: number; take: number }): Promise<DisclaimersPage> {
    const mayOpen = await this.accessOf(userId);
    const rows = (await findDisclaimedApplications(this.context.dataSource, userId)).filter(hasDisclaimer).filter(mayOpen);
    const items = rows.map((row) => itemOf(row, language)).sort(byAcceptance);
    return { items: items.slice(page.skip, page.skip + page.take), count: items.length };
  }

  /**
   * Accepts the latest disclaimer of application `appId` (idempotent). An application without one,
   * or one the user may not open, is not found; `version`, the one the user read, must be the latest.
   */
  async accept(userId: string, appId: string, language: string, version: number | undefined): Promise<DisclaimerItem> {
    const db = this.context.dataSource;
    const row = await findApplicationDisclaimer(db, userId, { id: appId });
    if (!row || !hasDisclaimer(row) || !(await this.accessOf(userId))(row)) throw new AppError('errors.not_found', 404);
    if (version !== undefined && version !== row.version) throw new AppError('errors.disclaimer_outdated', 409);
    await recordAcceptance(db, row.disclaimer_id, userId);
    return itemOf((await this.accepted(userId, { id: appId })) ?? row, language);
  }

  /** Whether the caller accepted the latest disclaimer of `applicationName` (true when it has none). */
  async gate(caller: GateCaller, target: { userId: string; applicationName: string }, language: string): Promise<DisclaimerGate> {
    return gateOf(await this.gateApplication(caller, target), language);
  }

  /** Records the caller's acceptance of the latest disclaimer of `applicationName` (idempotent). */
  async acceptGate(caller: GateCaller, target: { userId: string; applicationName: string }, language: string): Promise<DisclaimerGate> {
    const row = await this.gateApplication(caller, target);
    if (!hasDisclaimer(row)) return gateOf(row, language);
    await recordAcceptance(this.context.dataSource, row.disclaimer_id, caller.accountId);
    return gateOf((await this.accepted(caller.accountId, { name: target.applicationName })) ?? row, language);
  }

  /**
   * The application the gate is asked about, once the caller may ask: only for themself, and
   * through the application itself or a first-party one (the portal, the console). The client is
   * judged before the application is looked up, so that another application learns nothing.
   */
  private async gateApplication(caller: GateCaller, target: { userId: string; applicationName: string }): Promise<ApplicationDisclaimerRow> {
    if (target.userId.toLowerCase() !== caller.accountId.toLowerCase()) throw new AppError('errors.forbidden', 403);
    const ownClient = caller.clientId === target.applicationName;
    if (!ownClient && !(await this.clients.find(caller.clientId))?.isFirstParty) throw new AppError('errors.forbidden', 403);
    const row = await findApplicationDisclaimer(this.context.dataSource, caller.accountId, { name: target.applicationName });
    if (!row) throw new AppError('users.application_not_found', 404);
    return row;
  }

  /** The application's row read again after an acceptance (its date is the stored one). */
  private async accepted(userId: string, application: { id: string } | { name: string }): Promise<Disclaimed | undefined> {
    const row = await findApplicationDisclaimer(this.context.dataSource, userId, application);
    return row && hasDisclaimer(row) ? row : undefined;
  }

  /**
   * Which applications the user may open: those they hold a role in; the administration (the
   * Identity application and the admin console) for Administrator or God; the portal for everyone.
   */
  private async accessOf(userId: string): Promise<(row: ApplicationDisclaimerRow) => boolean> {
    const roles = await resolveEffectiveRoles(this.context.dataSource, userId);
    const held = new Set(roles.map((role) => role.applicationId));
    const administrator = roles.some((role) => role.applicationId === IDENTITY_APPLICATION_ID && ADMINISTRATION_ROLES.has(role.roleName));
    const { portalClientId, adminClientId } = this.context.config.oidc;
    return (row) => {
      if (row.app_name === portalClientId) return true;
      if (row.app_id === IDENTITY_APPLICATION_ID || row.app_name === adminClientId) return administrator;
      return held.has(row.app_id);
    };
  }
}
