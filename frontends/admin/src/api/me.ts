import { adminApi } from './admin-api';

/** `GET /api/v1/admin/me`: the signed-in administrator and their roles in the Identity application. */
export interface AdminMe {
  id: string;
  userName: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  roles: string[];
}

export const meApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<AdminMe, void>({
      query: () => '/api/v1/admin/me',
      providesTags: ['Me'],
    }),
  }),
});

export const { useMeQuery } = meApi;
