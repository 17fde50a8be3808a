import type { ProfileSuccess, RightsRequestForm, rightsRoutes } from '@gatehouse/contracts';
import { authorizedFetch, type ApiDependencies } from '@gatehouse/frontend-shared';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { portalApi } from '../api/portal-api';

// The contract's path, written out so that the bundle carries no schema; its type keeps them equal.
const EXERCISE_RIGHTS: typeof rightsRoutes.exerciseRights.path = '/api/v1/profile/excerciseRights';

/** A rights request as the form sends it: its fields and its identification documents. */
export interface RightsRequestSubmission {
  fields: RightsRequestForm;
  files: readonly File[];
}

/** The multipart body the spec describes: the fields, then each document under `files[]`. */
export function rightsRequestBody({ fields, files }: RightsRequestSubmission): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) body.append(name, value);
  }
  for (const file of files) body.append('files[]', file, file.name);
  return body;
}

async function sendRequest(submission: RightsRequestSubmission, dependencies: ApiDependencies): Promise<{ data: ProfileSuccess } | { error: FetchBaseQueryError }> {
  try {
    const response = await authorizedFetch(dependencies, EXERCISE_RIGHTS, { method: 'POST', body: rightsRequestBody(submission) });
    const payload: unknown = await response.json().catch(() => undefined);
    return response.ok ? { data: payload as ProfileSuccess } : { error: { status: response.status, data: payload } };
  } catch (error) {
    return { error: { status: 'FETCH_ERROR', error: String(error) } };
  }
}

export const rightsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    // Sent by fetch itself, not by the JSON base query: the browser writes the multipart boundary of a FormData body.
    exerciseRights: build.mutation<ProfileSuccess, RightsRequestSubmission>({
      queryFn: (submission, api) => sendRequest(submission, api.extra as ApiDependencies),
    }),
  }),
});

export const { useExerciseRightsMutation } = rightsApi;
