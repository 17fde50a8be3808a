import { pathOf, type applicationUsersRoutes, type ResponseOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../../api/admin-api';
import { applicationUsersTag } from '../roles/app-roles-api';

export type { ApplicationUser, ApplicationUserRole } from '@gatehouse/contracts';

const USERS: (typeof applicationUsersRoutes)['users']['path'] = '/api/v1/admin/applications/:id/users';

export const applicationUsersApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    applicationUsers: build.query<ResponseOf<(typeof applicationUsersRoutes)['users']>, { appId: string; query: ListQuery }>({
      query: ({ appId, query }) => `${pathOf({ path: USERS }, { id: appId })}${toQueryString(query)}`,
      // A membership changed on a user's or a group's page changes this list too.
      providesTags: (_result, _error, { appId }) => [applicationUsersTag(appId), { type: 'User', id: 'LIST' }],
    }),
  }),
});

export const { useApplicationUsersQuery } = applicationUsersApi;
