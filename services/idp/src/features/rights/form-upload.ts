import type { IncomingMessage } from 'node:http';
import { AppError } from '@gatehouse/core';
import { RIGHTS_ATTACHMENTS_MAX_BYTES, RIGHTS_MAX_FILES } from '@gatehouse/contracts';
import type { Context } from 'koa';
import multer from 'multer';

/** Room for the text fields and the multipart envelope when judging a request by its Content-Length. */
const FORM_ALLOWANCE = 64 * 1024;
/** The spec's client sends the documents as `files[]`; a plain `files` is taken too. */
const FILE_FIELDS = ['files[]', 'files'];
const TEXT_FIELDS = 20;

/** One uploaded document, held in memory (all of them together are at most 2 MB). */
export interface UploadedDocument {
  name: string;
  buffer: Buffer;
}

/** A rights request's form as sent: its text fields (unchecked) and its documents. */
export interface RightsForm {
  fields: Record<string, unknown>;
  files: UploadedDocument[];
}

/** Thrown by the storage once the documents of one request, together, pass 2 MB. */
class TotalTooLarge extends Error {}

type StoredCallback = (error?: unknown, info?: Partial<Express.Multer.File>) => void;

/**
 * multer's memory storage with one limit more: the documents of a request together, not only each
 * one, stay within 2 MB, so memory is bounded whatever the client sends (a chunked body has no
 * Content-Length to refuse it by).
 */
class BoundedMemoryStorage implements multer.StorageEngine {
  private readonly received = new WeakMap<object, number>();

  _handleFile(req: object, file: Express.Multer.File, callback: StoredCallback): void {
    const chunks: Buffer[] = [];
    let answered = false;
    const answer = (error?: unknown, info?: Partial<Express.Multer.File>) => {
      if (answered) return;
      answered = true;
      callback(error, info);
    };
    file.stream.on('data', (chunk: Buffer) => {
      const total = (this.received.get(req) ?? 0) + chunk.length;
      this.received.set(req, total);
      if (total > RIGHTS_ATTACHMENTS_MAX_BYTES) {
        // Nothing more is kept; the rest of the stream flows on so that busboy can finish.
        chunks.length = 0;
        answer(new TotalTooLarge());
      } else if (!answered) {
        chunks.push(chunk);
      }
    });
    file.stream.on('error', (error) => answer(error));
    file.stream.on('end', () => {
      const buffer = Buffer.concat(chunks);
      answer(undefined, { buffer, size: buffer.length });
    });
  }

  _removeFile(_req: object, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    (file as { buffer?: Buffer }).buffer = undefined;
    callback(null);
  }
}

/**
 * A reader of a rights request's multipart form. It refuses: another content type (415); a body
 * whose Content-Length is past 2 MB and the fields' allowance, before reading a byte of it, and
 * documents past 2 MB together, as soon as the limit is reached (413, "2MB files size limit
 * exceeded"); more than RIGHTS_MAX_FILES documents, a file under another field or a malformed form
 * (400). multer itself, not @koa/multer's wrapper, which adds nothing here but a promise.
 */
export function rightsFormReader(): (ctx: Context) => Promise<RightsForm> {
  const upload = multer({
    storage: new BoundedMemoryStorage(),
    // Browsers write file names in UTF-8; busboy would read them as Latin-1.
    defParamCharset: 'utf8',
    limits: { fileSize: RIGHTS_ATTACHMENTS_MAX_BYTES, files: RIGHTS_MAX_FILES, fields: TEXT_FIELDS, fieldSize: 16 * 1024, parts: RIGHTS_MAX_FILES + TEXT_FIELDS },
  }).fields(FILE_FIELDS.map((name) => ({ name, maxCount: RIGHTS_MAX_FILES })));

  return async function readRightsForm(ctx: Context): Promise<RightsForm> {
    if (!ctx.is('multipart/form-data')) throw new AppError('errors.unsupported_media_type', 415);
    if (Number(ctx.get('content-length')) > RIGHTS_ATTACHMENTS_MAX_BYTES + FORM_ALLOWANCE) {
      // Refused unread: the connection closes after the answer, since the body is never read.
      ctx.set('Connection', 'close');
      throw tooLarge();
    }
    try {
      await new Promise<void>((resolve, reject) =>
        // multer is written for Express; Node's request and response are all it touches.
        upload(ctx.req as unknown as Parameters<typeof upload>[0], ctx.res as unknown as Parameters<typeof upload>[1], (error?: unknown) =>
          error ? reject(error) : resolve(),
        ),
      );
    } catch (error) {
      throw uploadRefusal(error);
    }
    const req = ctx.req as IncomingMessage & { body?: Record<string, unknown>; files?: Record<string, Express.Multer.File[]> };
    const files = FILE_FIELDS.flatMap((field) => req.files?.[field] ?? []);
    return { fields: { ...req.body }, files: files.map((file) => ({ name: file.originalname, buffer: file.buffer })) };
  };
}

function tooLarge(): AppError {
  return new AppError('rights.files_too_large', 413, {}, [{ field: 'files', code: 'rights.files_too_large' }]);
}

function uploadRefusal(error: unknown): AppError {
  if (error instanceof TotalTooLarge) return tooLarge();
  if (error instanceof multer.MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return tooLarge();
      case 'LIMIT_FILE_COUNT':
        return new AppError('rights.too_many_files', 400, { max: RIGHTS_MAX_FILES }, [{ field: 'files', code: 'rights.too_many_files', params: { max: RIGHTS_MAX_FILES } }]);
      case 'LIMIT_UNEXPECTED_FILE':
        return new AppError('rights.unexpected_field', 400);
      default:
        return new AppError('rights.upload_invalid', 400);
    }
  }
  // busboy's own errors (no boundary, a truncated body) are the client's request, not our failure.
  return new AppError('rights.upload_invalid', 400);
}
