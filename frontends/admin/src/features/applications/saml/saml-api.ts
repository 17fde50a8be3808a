import type { BodyOf, ResponseOf, samlApplicationsRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi } from '../../../api/admin-api';

type Routes = typeof samlApplicationsRoutes;

export type SamlApplication = ResponseOf<Routes['getSaml']>;
export type SamlSettingsChanges = BodyOf<Routes['setSaml']>;
export type SamlMetadata = ResponseOf<Routes['readSamlMetadata']>;
export type SamlMetadataSource = BodyOf<Routes['readSamlMetadata']>;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  saml: '/api/v1/admin/applications/:id/saml',
  metadata: '/api/v1/admin/applications/samlMetadata',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

const samlTag = (id: string) => ({ type: 'Application' as const, id: `saml:${id}` });

export const samlApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    samlApplication: build.query<SamlApplication, string>({
      query: (id) => pathOf({ path: PATHS.saml }, { id }),
      providesTags: (_result, _error, id) => [samlTag(id)],
    }),
    setSamlSettings: build.mutation<SamlApplication, { id: string; settings: SamlSettingsChanges }>({
      query: ({ id, settings }) => ({ url: pathOf({ path: PATHS.saml }, { id }), method: 'PUT', body: settings }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [samlTag(id), { type: 'Application' as const, id }]),
    }),
    readSamlMetadata: build.mutation<SamlMetadata, SamlMetadataSource>({
      query: (body) => ({ url: PATHS.metadata, method: 'POST', body }),
    }),
  }),
});

export const { useSamlApplicationQuery, useSetSamlSettingsMutation, useReadSamlMetadataMutation } = samlApi;
