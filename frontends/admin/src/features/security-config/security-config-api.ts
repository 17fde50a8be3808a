import type { PasswordPolicy, SecurityConfig, SecurityConfigList, SecurityConfigUpdate, securityConfigRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../api/admin-api';

export type { PasswordPolicy, SecurityConfig };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const LIST: typeof securityConfigRoutes.list.path = '/api/v1/admin/securityConfig';
const ONE: typeof securityConfigRoutes.update.path = '/api/v1/admin/securityConfig/:id';
const POLICY: typeof securityConfigRoutes.policy.path = '/api/v1/admin/policy';

const api = adminApi.enhanceEndpoints({ addTagTypes: ['SecurityConfig', 'PasswordPolicy'] });

export const securityConfigApi = api.injectEndpoints({
  endpoints: (build) => ({
    securityConfigs: build.query<SecurityConfigList, ListQuery>({
      query: (query) => `${LIST}${toQueryString(query)}`,
      providesTags: [{ type: 'SecurityConfig', id: 'LIST' }],
    }),
    updateSecurityConfig: build.mutation<SecurityConfig, { id: string } & SecurityConfigUpdate>({
      query: ({ id, body }) => ({ url: pathOf({ path: ONE }, { id }), method: 'PUT', body: { body } }),
      // The password policy the pages show may be the one that changed.
      invalidatesTags: [{ type: 'SecurityConfig', id: 'LIST' }, 'PasswordPolicy'],
    }),
    /** The password policy in force, for the rules shown beside a new password. */
    passwordPolicy: build.query<PasswordPolicy, void>({
      query: () => POLICY,
      providesTags: ['PasswordPolicy'],
    }),
  }),
});

export const { useSecurityConfigsQuery, useUpdateSecurityConfigMutation, usePasswordPolicyQuery } = securityConfigApi;
