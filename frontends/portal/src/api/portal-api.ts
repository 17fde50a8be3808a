import type {
  AddPasskeyBody,
  CompaniesPage,
  CompaniesQuery,
  Company,
  CurrentCompanyBody,
  EndedSessions,
  HomeApplication,
  HomeInfo,
  MyProfile,
  Passkey,
  PasskeyOptions,
  PasswordResetSent,
  ProfileChanges,
  ProfileSuccess,
  Reauthenticated,
  RecoveryCodes,
  SecurityOverview,
  TotpCodeBody,
  TotpEnrolment,
  TotpEnrolmentBody,
  UserSessionInfo,
  UserSessions,
  applicationsRoutes,
  portalApplicationsRoutes,
  profileRoutes,
  securityRoutes,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { authorizedBaseQuery, productPath } from '@gatehouse/frontend-shared';
import { createApi } from '@reduxjs/toolkit/query/react';

// The store is typed with them; they live in the shared package with the base query.
export type { ApiDependencies } from '@gatehouse/frontend-shared';

/** An application as `homeInfo` lists it. */
export type Application = HomeApplication;
export type { CompaniesPage, Company, HomeInfo, MyProfile, Passkey, ProfileChanges, RecoveryCodes, SecurityOverview, TotpEnrolment, UserSessionInfo };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const HOME_INFO: typeof applicationsRoutes.homeInfo.path = '/api/v1/admin/applications/homeInfo';
const ICON: typeof portalApplicationsRoutes.icon.path = '/api/v1/applications/icon/:appId';
const STATUS: typeof portalApplicationsRoutes.status.path = '/api/v1/applications/status/:name';
const RESET_PASSWORD: typeof profileRoutes.resetPassword.path = '/api/v1/profile/resetPassword/:name';
const PROFILE: typeof profileRoutes.get.path = '/api/v1/profile';
const COMPANIES: typeof profileRoutes.tenants.path = '/api/v1/profile/tenants';
const CURRENT_COMPANY: typeof profileRoutes.setCurrentCompany.path = '/api/v1/profile/currentCompany';
const TOTP: typeof profileRoutes.enrolTotp.path = '/api/v1/profile/totp';
const TOTP_CONFIRM: typeof profileRoutes.confirmTotp.path = '/api/v1/profile/totp/confirm';
const TOTP_DISABLE: typeof profileRoutes.disableTotp.path = '/api/v1/profile/totp/disable';
const SECURITY: typeof securityRoutes.get.path = '/api/v1/profile/security';
const REAUTHENTICATE: typeof securityRoutes.reauthenticate.path = '/api/v1/profile/reauthenticate';
const PASSKEY_OPTIONS: typeof securityRoutes.passkeyOptions.path = '/api/v1/profile/passkeys/options';
const PASSKEYS: typeof securityRoutes.addPasskey.path = '/api/v1/profile/passkeys';
const PASSKEY: typeof securityRoutes.renamePasskey.path = '/api/v1/profile/passkeys/:id';
const RECOVERY_CODES: typeof securityRoutes.generateRecoveryCodes.path = '/api/v1/profile/recoveryCodes';
const SESSIONS: typeof securityRoutes.sessions.path = '/api/v1/profile/sessions';
const SESSION: typeof securityRoutes.endSession.path = '/api/v1/profile/sessions/:id';
const OTHER_SESSIONS: typeof securityRoutes.endOtherSessions.path = '/api/v1/profile/sessions/endOthers';

/** The tenant selector's query string: the search when there is one, skip and take. */
function companiesQueryString({ searchQuery, skip = 0, take = 10 }: CompaniesQuery): string {
  const params = new URLSearchParams({ skip: String(skip), take: String(take) });
  if (searchQuery?.trim()) params.set('searchQuery', searchQuery.trim());
  return `?${params}`;
}

/** Icons are public (an <img> carries no token), so they load as plain image URLs. */
export function applicationIconUrl(appId: string): string {
  return productPath(pathOf({ path: ICON }, { appId }));
}

export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: authorizedBaseQuery,
  tagTypes: ['Profile', 'Company', 'Security', 'Session'],
  endpoints: (build) => ({
    homeInfo: build.query<HomeInfo, void>({
      query: () => HOME_INFO,
    }),
    applicationStatus: build.query<string, string>({
      query: (name) => ({ url: pathOf({ path: STATUS }, { name }), responseHandler: 'text' }),
    }),
    // A GET with an effect (it mails a reset link), so never cached: a mutation.
    requestPasswordReset: build.mutation<PasswordResetSent, string>({
      query: (userName) => ({ url: pathOf({ path: RESET_PASSWORD }, { name: userName }), method: 'GET' }),
    }),
    myProfile: build.query<MyProfile, void>({
      query: () => PROFILE,
      providesTags: ['Profile'],
    }),
    updateProfile: build.mutation<MyProfile, ProfileChanges>({
      query: (body) => ({ url: PROFILE, method: 'PUT', body }),
      // The answer is the updated profile: the cache takes it without asking again.
      async onQueryStarted(_changes, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) void dispatch(portalApi.util.upsertQueryData('myProfile', undefined, data));
      },
    }),
    companies: build.query<CompaniesPage, CompaniesQuery>({
      query: (query) => `${COMPANIES}${companiesQueryString(query)}`,
      providesTags: ['Company'],
    }),
    setCurrentCompany: build.mutation<Company, CurrentCompanyBody>({
      query: (body) => ({ url: CURRENT_COMPANY, method: 'PUT', body }),
      invalidatesTags: ['Profile'],
    }),
    // "My security": the factors, never a secret, and until when a change needs no password.
    security: build.query<SecurityOverview, void>({
      query: () => SECURITY,
      providesTags: ['Security'],
    }),
    reauthenticate: build.mutation<Reauthenticated, { password: string }>({
      query: (body) => ({ url: REAUTHENTICATE, method: 'POST', body }),
      // The new deadline goes into the overview without reading it again.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) void dispatch(portalApi.util.updateQueryData('security', undefined, (draft) => void (draft.recentUntil = data.recentUntil)));
      },
    }),
    passkeyRegistrationOptions: build.mutation<PasskeyOptions, void>({
      query: () => ({ url: PASSKEY_OPTIONS, method: 'POST' }),
    }),
    addPasskey: build.mutation<Passkey, AddPasskeyBody>({
      query: (body) => ({ url: PASSKEYS, method: 'POST', body }),
      invalidatesTags: ['Security'],
    }),
    renamePasskey: build.mutation<Passkey, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: pathOf({ path: PASSKEY }, { id }), method: 'PATCH', body: { name } }),
      invalidatesTags: ['Security'],
    }),
    removePasskey: build.mutation<ProfileSuccess, string>({
      query: (id) => ({ url: pathOf({ path: PASSKEY }, { id }), method: 'DELETE' }),
      invalidatesTags: ['Security'],
    }),
    enrolTotp: build.mutation<TotpEnrolment, TotpEnrolmentBody>({
      query: (body) => ({ url: TOTP, method: 'POST', body }),
    }),
    confirmTotp: build.mutation<ProfileSuccess, TotpCodeBody>({
      query: (body) => ({ url: TOTP_CONFIRM, method: 'POST', body }),
      invalidatesTags: ['Security'],
    }),
    disableTotp: build.mutation<ProfileSuccess, TotpCodeBody>({
      query: (body) => ({ url: TOTP_DISABLE, method: 'POST', body }),
      invalidatesTags: ['Security'],
    }),
    generateRecoveryCodes: build.mutation<RecoveryCodes, void>({
      query: () => ({ url: RECOVERY_CODES, method: 'POST' }),
      invalidatesTags: ['Security'],
    }),
    sessions: build.query<UserSessions, void>({
      query: () => SESSIONS,
      providesTags: ['Session'],
    }),
    endSession: build.mutation<EndedSessions, string>({
      query: (id) => ({ url: pathOf({ path: SESSION }, { id }), method: 'DELETE' }),
      invalidatesTags: ['Session'],
    }),
    endOtherSessions: build.mutation<EndedSessions, void>({
      query: () => ({ url: OTHER_SESSIONS, method: 'POST' }),
      invalidatesTags: ['Session'],
    }),
  }),
});

export const {
  useHomeInfoQuery,
  useApplicationStatusQuery,
  useRequestPasswordResetMutation,
  useMyProfileQuery,
  useUpdateProfileMutation,
  useCompaniesQuery,
  useSetCurrentCompanyMutation,
  useSecurityQuery,
  useReauthenticateMutation,
  usePasskeyRegistrationOptionsMutation,
  useAddPasskeyMutation,
  useRenamePasskeyMutation,
  useRemovePasskeyMutation,
  useEnrolTotpMutation,
  useConfirmTotpMutation,
  useDisableTotpMutation,
  useGenerateRecoveryCodesMutation,
  useSessionsQuery,
  useEndSessionMutation,
  useEndOtherSessionsMutation,
} = portalApi;
