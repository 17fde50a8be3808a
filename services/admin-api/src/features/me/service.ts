import { AppError, type AppContext } from '@gatehouse/core';
import type { AdminMe } from '@gatehouse/contracts';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { findMe } from './repository.js';

/** Who the console is talking to. */
export class MeService {
  constructor(private readonly context: AppContext) {}

  /** The caller's account and the roles of their token, so the console decides on exactly what the server enforces. */
  async get(caller: Caller): Promise<AdminMe> {
    const user = await findMe(this.context.dataSource, caller.userId);
    // A token outliving its account (deleted since) names nobody.
    if (!user) throw new AppError('errors.unauthorized', 401);
    return {
      id: user.id,
      userName: user.user_name,
      firstName: user.first_name,
      lastName: user.last_name,
      email: user.email,
      language: user.language,
      roles: [...new Set(caller.roles)].sort(),
    };
  }
}
