import type { AppContext } from '@gatehouse/core';
import { insertHistory, insertRequest } from './repository.js';

/** Flags roles as requestable through operation requests. */
export async function makeRequestable(context: AppContext, roleIds: string[]): Promise<void> {
  await context.dataSource.query('UPDATE roles SET operation_request_visibility = true WHERE id = ANY($1::uuid[])', [roleIds]);
}

/** A request waiting for approval, created by `createdById`, as the create call stores it; answers its id. */
export async function waitingRequest(
  context: AppContext,
  request: { tenantId: string; userId?: string; groupId?: string; roleIds: string[]; createdById: string; isInheritable?: boolean },
): Promise<string> {
  const identity = request.groupId ? { type: 'Group' as const, id: request.groupId } : { type: 'User' as const, id: request.userId! };
  const id = await insertRequest(context.dataSource, {
    tenantId: request.tenantId,
    identity,
    payload: { roles: request.roleIds, isInheritable: request.isInheritable ?? true },
    createdById: request.createdById,
  });
  await insertHistory(context.dataSource, { requestId: id, status: 'WaitingForApprover', requestType: 'Permission', actorId: request.createdById, actorEmail: null });
  return id;
}
