import { AppError, toListQuery, type AppContext } from '@gatehouse/core';
import type { rightsRequestDetailSchema, rightsRequestListSchema, rightsRequestSummarySchema, rightsRequestsRoutes } from '@gatehouse/contracts';
import type { z } from 'zod';
import {
  RIGHTS_REQUEST_SORT,
  findRightsRequest,
  findRightsRequestFile,
  listRightsRequestFiles,
  listRightsRequests,
  type RightsRequestFileRow,
  type RightsRequestRow,
} from './repository.js';

type RightsRequestListQuery = z.output<typeof rightsRequestsRoutes.list.query>;
// What the response schemas take: times as Dates, written out as ISO strings on the wire.
type RightsRequestList = z.input<typeof rightsRequestListSchema>;
type RightsRequestSummary = z.input<typeof rightsRequestSummarySchema>;
type RightsRequestDetail = z.input<typeof rightsRequestDetailSchema>;

/** A document to download: its name, its media type (as its content was recognised) and its bytes. */
export interface RightsRequestDownload {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** The data-protection rights requests sent from the portal, as Administrators read them. */
export class RightsRequestsService {
  constructor(private readonly context: AppContext) {}

  /** A page of the requests, newest first unless told otherwise. */
  async list(query: RightsRequestListQuery): Promise<RightsRequestList> {
    const { rows, count } = await listRightsRequests(this.context.dataSource, toListQuery(query, RIGHTS_REQUEST_SORT));
    return { items: rows.map(summaryOf), count };
  }

  /** One request with the names of its documents; 404 when there is none with this id. */
  async get(id: string): Promise<RightsRequestDetail> {
    const row = await findRightsRequest(this.context.dataSource, id);
    if (!row) throw new AppError('errors.not_found', 404);
    const files = await listRightsRequestFiles(this.context.dataSource, id);
    return { ...summaryOf(row), representativeData: row.representative_data, requestDetails: row.request_details, files: files.map(fileOf) };
  }

  /** One document of a request; 404 when the request has no such document. */
  async file(id: string, fileId: string): Promise<RightsRequestDownload> {
    const row = await findRightsRequestFile(this.context.dataSource, id, fileId);
    if (!row) throw new AppError('errors.not_found', 404);
    return { fileName: row.file_name, contentType: row.content_type, content: row.content };
  }
}

function summaryOf(row: RightsRequestRow): RightsRequestSummary {
  return {
    id: row.id,
    createdAt: row.created_at,
    requestDate: row.request_date,
    fullName: row.full_name,
    email: row.email,
    requestType: row.request_type,
    rights: row.rights as RightsRequestSummary['rights'],
    userId: row.user_id,
    userName: row.user_name,
    fileCount: row.file_count,
  };
}

function fileOf(row: RightsRequestFileRow): RightsRequestDetail['files'][number] {
  return { id: row.id, fileName: row.file_name, contentType: row.content_type, size: row.size };
}
