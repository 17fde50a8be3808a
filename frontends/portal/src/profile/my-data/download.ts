import type { myDataRoutes } from '@gatehouse/contracts';
import { ApiError, apiErrorMessage, authorizedFetch, readErrorBody, type ApiDependencies } from '@gatehouse/frontend-shared';
import type { TFunction } from 'i18next';

// The contract's path, written out so that the bundle carries no schema; its type keeps them equal.
export const MY_DATA_PATH: typeof myDataRoutes.download.path = '/api/v1/profile/myData';

/** The name the server gives the file (RFC 6266 `filename*` first), else `fallback`. */
export function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed header: the plain name, or the caller's.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? fallback;
}

/** Hands `blob` to the browser as a download named `fileName`. */
export function saveFile(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = href;
    link.download = fileName;
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
 * Downloads the user's data with their token and language and saves it under the server's name
 * ("My data.xlsx" in English), else `fallbackName`. A refusal rejects with an ApiError carrying the
 * message to show (the server's, in the request's language).
 */
export async function downloadMyData(dependencies: ApiDependencies, fallbackName: string, t: TFunction<'translation'>): Promise<void> {
  const response = await authorizedFetch(dependencies, MY_DATA_PATH);
  if (!response.ok) {
    const body = await readErrorBody(response);
    throw new ApiError(response.status, apiErrorMessage(response.status, body, t), body.code);
  }
  saveFile(await response.blob(), fileNameOf(response, fallbackName));
}
