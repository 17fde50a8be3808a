import { z } from 'zod';
import { idSchema } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The path the notifications' file results point to (`data.fileUrl` holds the file's id). */
export const FILE_STORAGE_DOWNLOAD_PATH = '/api/v1/admin/filestorage/downloadExcel';

export const fileStorageRoutes = {
  downloadExcel: defineRoute({
    method: 'GET',
    path: FILE_STORAGE_DOWNLOAD_PATH,
    endpoint: 'filestorage.downloadExcel',
    access: 'roles',
    summary: 'Downloads an Excel file one of the caller’s background jobs produced (`url`: its id), until it expires',
    query: z.object({ url: idSchema }),
    produces: XLSX,
  }),
} satisfies Record<string, RouteContract>;
