import { createHash } from 'node:crypto';
import { AVATAR_SIZE, avatarRoutes, pathOf, type CompaniesPage, type Company, type MyProfile } from '@gatehouse/contracts';
import { AppError, IDENTITY_APPLICATION_ID, likePattern, type AppContext } from '@gatehouse/core';
import type { AccountDirectory } from '../../oidc/account.js';
import {
  companySummary,
  currentCompanyOf,
  findMyCompany,
  findMyProfile,
  listMyCompanies,
  storeCurrentCompany,
  updateMyProfile,
  type CompanySummary,
  type MyProfileRow,
} from './repository.js';

/**
 * The picture's address: by the SHA-256 of the trimmed, lower-cased e-mail, at the spec's size, with
 * the uploaded picture's version (`v`) so that a new picture gets a new address the browser has not cached.
 */
export function avatarUrlOf(email: string, version: string | null = null): string {
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  const query = new URLSearchParams({ size: String(AVATAR_SIZE.default), ...(version ? { v: version } : {}) });
  return `${pathOf(avatarRoutes.picture, { hash })}?${query}`;
}

/** The query of `GET /api/v1/profile/tenants` once validated. */
interface CompaniesPaging {
  searchQuery?: string;
  skip: number;
  take: number;
}

/** "Your Profile" and the company selection: what the signed-in user reads and changes of themself. */
export class MyProfileService {
  constructor(
    private readonly context: AppContext,
    private readonly directory: AccountDirectory,
  ) {}

  async get(accountId: string): Promise<MyProfile> {
    const db = this.context.dataSource;
    const row = await findMyProfile(db, accountId);
    if (!row) throw new AppError('errors.unauthorized', 401);
    const [roles, summary] = await Promise.all([this.directory.roleNames(accountId, IDENTITY_APPLICATION_ID), companySummary(db, accountId)]);
    return present(row, roles, summary);
  }

  /**
   * Stores the names and the preferred language: the language of every later mail. The provider's
   * cached copy of the account is dropped on every node, so the next tokens carry the new names.
   */
  async update(accountId: string, changes: { firstName: string; lastName: string; language: string }): Promise<MyProfile> {
    if (!(await updateMyProfile(this.context.dataSource, accountId, changes))) throw new AppError('errors.unauthorized', 401);
    this.context.broadcast.publish('user.changed', { userId: accountId });
    return this.get(accountId);
  }

  /** The user's companies by title, searched and paged as the tenant selector asks. */
  async companies(accountId: string, query: CompaniesPaging): Promise<CompaniesPage> {
    const pattern = query.searchQuery ? likePattern(query.searchQuery) : null;
    return listMyCompanies(this.context.dataSource, accountId, { pattern, skip: query.skip, take: query.take });
  }

  /** Makes `tenantId` the current company; a tenant that is not one of the user's is not found. */
  async chooseCompany(accountId: string, tenantId: string): Promise<Company> {
    const db = this.context.dataSource;
    const company = await findMyCompany(db, accountId, tenantId);
    if (!company) throw new AppError('users.tenant_not_found', 404);
    await storeCurrentCompany(db, accountId, company.id);
    return company;
  }
}

function present(row: MyProfileRow, roles: string[], summary: CompanySummary): MyProfile {
  return {
    id: row.id,
    userName: row.user_name,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    language: row.language,
    areaName: row.area_name,
    avatarUrl: avatarUrlOf(row.email, row.avatar_version),
    roles,
    currentCompany: currentCompanyOf(summary),
    companyCount: summary.count,
  };
}
