import type { IncomingMessage } from 'node:http';
import { AppError, type ErrorCode } from '@gatehouse/core';
import type { Context } from 'koa';
import multer from 'multer';

/** The multipart field the picture is read from. */
export const PICTURE_FIELD = 'file';
/** Room for the multipart envelope around the file when judging a request by its Content-Length. */
const MULTIPART_ALLOWANCE = 64 * 1024;

/** "2 MB", "512 KB": a byte limit as people read it. */
export function readableSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

function problemOf(error: unknown): ErrorCode {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return 'avatar.file_too_large';
    if (error.code === 'LIMIT_FILE_COUNT') return 'avatar.one_file_only';
    if (error.code === 'LIMIT_UNEXPECTED_FILE') return 'avatar.file_required';
  }
  // busboy's own errors (no boundary, a body cut short) are the client's request, not our failure.
  return 'avatar.malformed_upload';
}

/**
 * A reader of the one picture of a multipart request (field `file`), held in memory: multer
 * stops buffering at `maxBytes`, so memory stays bounded whatever the client sends. It refuses
 * with a 400 a picture over `maxBytes` (a request declaring more is refused before a byte of it
 * is read), a request without the file, with several, or that cannot be read. What the bytes are
 * is judged later, by their content.
 */
export function pictureUploadReader(maxBytes: number): (ctx: Context) => Promise<Buffer> {
  const limit = readableSize(maxBytes);
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  }).single(PICTURE_FIELD);

  return async function readPicture(ctx: Context): Promise<Buffer> {
    if (Number(ctx.get('content-length')) > maxBytes + MULTIPART_ALLOWANCE) {
      // The rest of the body is never read: the connection closes after the answer.
      ctx.set('Connection', 'close');
      throw new AppError('avatar.file_too_large', 400, { limit });
    }
    try {
      await new Promise<void>((resolve, reject) =>
        // multer is written for Express; Node's request and response are all it touches.
        upload(ctx.req as unknown as Parameters<typeof upload>[0], ctx.res as unknown as Parameters<typeof upload>[1], (error?: unknown) =>
          error ? reject(error) : resolve(),
        ),
      );
    } catch (error) {
      throw new AppError(problemOf(error), 400, { limit });
    }
    const file = (ctx.req as IncomingMessage & { file?: Express.Multer.File }).file;
    if (!file || file.size === 0) throw new AppError('avatar.file_required', 400);
    return file.buffer;
  };
}
