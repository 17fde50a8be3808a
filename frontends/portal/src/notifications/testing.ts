import type { ActiveTask, UserNotification } from '@gatehouse/contracts';
import { jsonResponse, type stubApi } from '../test-utils';

export const ACTIVE = 'GET /api/v1/admin/notifications/active';
export const MARK_READ = 'PUT /api/v1/admin/notifications';
export const DELETE_ALL = 'DELETE /api/v1/admin/notifications';
export const TASKS = 'GET /api/v1/admin/tasks/active';
export const FILE = 'GET /api/v1/admin/filestorage/downloadExcel';

/** A notification of Jane's, unread, of an hour ago unless told. */
export function note(overrides: Partial<UserNotification> = {}): UserNotification {
  return {
    id: 'n-1',
    type: 'OperationRequest',
    description: 'An access request for Ann Client in Acme waits for your approval',
    readed: false,
    data: null,
    userId: 'u-1',
    creationTime: new Date(Date.now() - 60 * 60_000).toISOString(),
    ...overrides,
  };
}

export function task(overrides: Partial<ActiveTask> = {}): ActiveTask {
  return { id: 't-1', type: 'BulkInsertPermisionRequestForTenant', status: 'Running', startTime: new Date().toISOString(), progress: 3, total: 10, ...overrides };
}

/**
 * The notifications API as the server keeps it for one user: reads, marks and deletions change what
 * the next read answers, and every mark-read body is recorded. `unreadBeyond` counts unread
 * notifications older than the list reaches (the list shows the newest 100).
 */
export function fakeNotificationsApi(initial: UserNotification[], options: { tasks?: ActiveTask[]; unreadBeyond?: number } = {}) {
  const state = { items: [...initial], tasks: [...(options.tasks ?? [])], marks: [] as unknown[], unreadBeyond: options.unreadBeyond ?? 0 };
  const unread = () => state.items.filter((n) => !n.readed).length + state.unreadBeyond;
  const routes: Record<string, (request: Request) => Response | Promise<Response>> = {
    [ACTIVE]: () => jsonResponse({ items: state.items, count: state.items.length, unread: unread() }),
    [MARK_READ]: async (request) => {
      const body = (await request.json()) as { ids?: string[] };
      state.marks.push(body);
      const marked = state.items.filter((n) => !n.readed && (!body.ids || body.ids.includes(n.id)));
      state.items = state.items.map((n) => (marked.includes(n) ? { ...n, readed: true } : n));
      if (!body.ids) state.unreadBeyond = 0;
      return jsonResponse({ marked: marked.length, unread: unread() });
    },
    [DELETE_ALL]: () => {
      state.items = [];
      state.unreadBeyond = 0;
      return new Response(null, { status: 204 });
    },
    [TASKS]: () => jsonResponse({ items: state.tasks, count: state.tasks.length }),
  };
  for (const item of initial) {
    routes[`DELETE /api/v1/admin/notifications/${item.id}`] = () => {
      state.items = state.items.filter((n) => n.id !== item.id);
      return new Response(null, { status: 204 });
    };
  }
  return { state, routes };
}

/** The requests fetch received, as 'METHOD /path'. */
export function requested(fetchMock: ReturnType<typeof stubApi>): string[] {
  return fetchMock.mock.calls.map(([input, init]) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    return `${request.method} ${new URL(request.url).pathname}`;
  });
}
