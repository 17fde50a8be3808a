import { AppError, IDENTITY_APPLICATION_ID, applicationIcon, homeApplications, resolveEffectiveRoles, type AppContext } from '@gatehouse/core';
import type { UserApplications } from '@gatehouse/contracts';
import { findApplicationStatus } from './repository.js';

/** The applications as the identity host serves them: icons, status, a user's list. */
export class ApplicationsService {
  constructor(private readonly context: AppContext) {}

  /** An application's icon, else the default one. */
  icon(appId: string): ReturnType<typeof applicationIcon> {
    return applicationIcon(this.context, appId);
  }

  /** 'Running', 'Maintenance' or 'Stopped'. */
  async status(nameOrId: string): Promise<string> {
    const status = await findApplicationStatus(this.context.dataSource, nameOrId);
    if (status === undefined) throw new AppError('errors.not_found', 404);
    return status;
  }

  /** The applications `userId` may open, asked by the user themself or by an Administrator. */
  async userApplications(callerId: string, userId: string): Promise<UserApplications> {
    if (callerId !== userId) {
      const roles = await resolveEffectiveRoles(this.context.dataSource, callerId, { applicationId: IDENTITY_APPLICATION_ID });
      if (!roles.some((r) => r.roleName === 'Administrator')) throw new AppError('errors.forbidden', 403);
    }
    if (!/^[0-9a-f-]{36}$/i.test(userId)) throw new AppError('errors.not_found', 404);
    const items = (await homeApplications(this.context, userId)).filter((app) => app.hasAccess);
    return { items, count: items.length };
  }
}
