import { apiErrorFromBody, authorizedBaseQuery, authorizedFetch, readErrorBody, type ApiError } from '@gatehouse/frontend-shared';
import { createApi } from '@reduxjs/toolkit/query/react';
import { getApiDependencies } from '../auth/api-dependencies';

/**
 * The admin API. Each feature adds its endpoints with `adminApi.injectEndpoints` in its own file,
 * so the features stay apart and every one shares one cache and one set of tags.
 */
export const adminApi = createApi({
  reducerPath: 'adminApi',
  baseQuery: authorizedBaseQuery,
  tagTypes: ['User', 'Group', 'Area', 'Dashboard', 'Me', 'Tenant', 'Application'],
  endpoints: () => ({}),
});

/** The list contract of the admin API ($search, paging, ordering, plus filters of the list). */
export type ListQuery = {
  $search?: string;
  skip?: number;
  top?: number;
  orderBy?: string;
  [extra: string]: string | number | boolean | undefined;
};

/** A page of a list; `countEstimated` when the total is the server's estimate (a large match). */
export type ListResult<T> = { items: T[]; count: number; countEstimated?: true };

/** `?a=1&b=x` of the defined values of a list query ('' when none). */
export function toQueryString(query: ListQuery | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The error of a failed download or upload: the server's message and field errors, else the generic one. */
async function errorOf(response: Response): Promise<ApiError> {
  return apiErrorFromBody(response.status, await readErrorBody(response));
}

function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed header: the caller's name.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * Downloads `url` (an Excel export or template) with the administrator's token and saves it as
 * `fileName` (or the name the server gives). Rejects with an {@link ApiError} carrying the
 * server's (localized) message.
 */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const response = await authorizedFetch(getApiDependencies(), url);
  if (!response.ok) throw await errorOf(response);
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = href;
    link.download = fileNameOf(response, fileName);
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked on the next task: some browsers start the download only after click() returns.
    setTimeout(() => URL.revokeObjectURL(href), 0);
  }
}

/**
 * Uploads `file` as the multipart field `file` (an Excel import) and resolves with the server's
 * JSON answer (undefined when it sends none). Rejects with an {@link ApiError} carrying the
 * server's (localized) message and its field errors.
 */
export async function uploadFile<T = unknown>(url: string, file: Blob, fileName?: string): Promise<T> {
  const response = await authorizedFetch(getApiDependencies(), url, {
    method: 'POST',
    // A new FormData per attempt is not needed: fetch does not consume a FormData body.
    body: formDataOf(file, fileName),
  });
  if (!response.ok) throw await errorOf(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

function formDataOf(file: Blob, fileName?: string): FormData {
  const form = new FormData();
  if (fileName !== undefined) form.append('file', file, fileName);
  else form.append('file', file);
  return form;
}
