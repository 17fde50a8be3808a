import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';
import multer from 'multer';
import { importErrors, type ImportErrors, type ImportProblem } from './import-errors.js';

/** The spec's attachment limit (section 9): 2 MB. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
const MAX_UPLOAD_TEXT = '2 MB';
/** Room for the multipart envelope around the file when judging a request by its Content-Length. */
const MULTIPART_ALLOWANCE = 64 * 1024;

/** An uploaded workbook, held in memory (it is at most MAX_UPLOAD_BYTES). */
export interface UploadedWorkbook {
  name: string;
  buffer: Buffer;
}

export interface XlsxUploadOptions {
  /** The multipart field the file is read from (default `file`). */
  field?: string;
  /** How the route words a bad upload (default the `import.*` codes). */
  errors?: ImportErrors;
}

/**
 * Reads one .xlsx file from a multipart field into `ctx.state.upload` (see uploadOf), or refuses
 * the request as {@link xlsxUploadReader} does.
 */
export function koaXlsxUpload(options: XlsxUploadOptions = {}): Middleware {
  const read = xlsxUploadReader(options);
  return async function xlsxUpload(ctx: Context, next) {
    ctx.state.upload = await read(ctx);
    await next();
  };
}

/**
 * A reader of one .xlsx file from a multipart field, for a handler that checks the caller before
 * the body is read. It refuses the request: over 2 MB (413), no file, another extension
 * ("Extension not allowed"), a file under another field or a malformed request (400), in the words
 * of `options.errors`. multer itself, not @koa/multer's wrapper, because the wrapper ships without
 * types and adds nothing here but a promise around the same call.
 */
export function xlsxUploadReader(options: XlsxUploadOptions = {}): (ctx: Context) => Promise<UploadedWorkbook> {
  const field = options.field ?? 'file';
  const errors = options.errors ?? importErrors;
  const upload = multer({
    storage: multer.memoryStorage(),
    // multer stops buffering at fileSize, so memory stays bounded whatever the client sends.
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 20 },
  }).single(field);

  return async function readXlsxUpload(ctx: Context) {
    const declared = Number(ctx.get('content-length'));
    if (declared > MAX_UPLOAD_BYTES + MULTIPART_ALLOWANCE) {
      // Refused before reading a byte: reading a huge body only to discard it is what an attacker
      // wants. The connection closes after the answer, since the rest of the body is never read.
      ctx.set('Connection', 'close');
      throw errors('file_too_large', { field, limit: MAX_UPLOAD_TEXT });
    }
    try {
      await new Promise<void>((resolve, reject) =>
        // multer is written for Express; Node's request and response are all it touches.
        upload(ctx.req as unknown as Parameters<typeof upload>[0], ctx.res as unknown as Parameters<typeof upload>[1], (error?: unknown) =>
          error ? reject(error) : resolve(),
        ),
      );
    } catch (error) {
      throw errors(uploadProblem(error), { field, limit: MAX_UPLOAD_TEXT });
    }
    const file = (ctx.req as IncomingMessage & { file?: Express.Multer.File }).file;
    if (!file) throw errors('file_required', { field });
    if (!/\.xlsx$/i.test(file.originalname)) throw errors('extension_not_allowed', { field });
    return { name: file.originalname, buffer: file.buffer };
  };
}

/** The upload read by koaXlsxUpload. */
export function uploadOf(ctx: Context): UploadedWorkbook {
  return ctx.state.upload as UploadedWorkbook;
}

function uploadProblem(error: unknown): ImportProblem {
  if (error instanceof multer.MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return 'file_too_large';
      case 'LIMIT_FILE_COUNT':
        return 'one_file_only';
      case 'LIMIT_UNEXPECTED_FILE':
        return 'unexpected_field';
      default:
        return 'malformed_upload';
    }
  }
  // busboy's own errors (no boundary, truncated body) are the client's request, not our failure.
  return 'malformed_upload';
}
