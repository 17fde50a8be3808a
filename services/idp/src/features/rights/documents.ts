import type { FieldError } from '@gatehouse/core';
import { RIGHTS_ATTACHMENTS_MAX_BYTES, extensionOf, isAcceptedAttachmentName, type RightsAttachmentExtension } from '@gatehouse/contracts';
import { fileTypeFromBuffer } from 'file-type';
import type { UploadedDocument } from './form-upload.js';

/** The longest file name stored (the column's size). */
const MAX_FILE_NAME = 260;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * What the content of each accepted extension must be, as file-type reads it from the bytes, and
 * the media type the document is then stored and served as (never the one the client claimed).
 */
const CONTENT: Record<RightsAttachmentExtension, { detected: string; contentType: string }> = {
  pdf: { detected: 'pdf', contentType: 'application/pdf' },
  // A .doc is an OLE compound file; one holding a Word document has a stream named WordDocument.
  doc: { detected: 'cfb', contentType: 'application/msword' },
  docx: { detected: 'docx', contentType: DOCX },
  png: { detected: 'png', contentType: 'image/png' },
  jpg: { detected: 'jpg', contentType: 'image/jpeg' },
  jpeg: { detected: 'jpg', contentType: 'image/jpeg' },
};
/** The directory entry name of a Word document's main stream, as a compound file writes it (UTF-16LE). */
const WORD_DOCUMENT_STREAM = Buffer.from('WordDocument', 'utf16le');

/** A document ready to store. */
export interface CheckedDocument {
  fileName: string;
  contentType: string;
  size: number;
  content: Buffer;
}

/**
 * The documents ready to store, or every problem with them: none sent, more than 2 MB together, a
 * name without an accepted extension, or content that is not what the extension says (an .exe
 * renamed .pdf, an HTML page named .png).
 */
export async function checkDocuments(files: readonly UploadedDocument[]): Promise<{ documents: CheckedDocument[]; problems: FieldError[] }> {
  if (files.length === 0) return { documents: [], problems: [{ field: 'files', code: 'rights.documents_required' }] };
  const problems: FieldError[] = [];
  const total = files.reduce((sum, file) => sum + file.buffer.length, 0);
  if (total > RIGHTS_ATTACHMENTS_MAX_BYTES) problems.push({ field: 'files', code: 'rights.files_too_large' });
  const documents: CheckedDocument[] = [];
  for (const file of files) {
    const checked = await checkDocument(file);
    if ('code' in checked) problems.push(checked);
    else documents.push(checked);
  }
  return { documents, problems };
}

async function checkDocument(file: UploadedDocument): Promise<CheckedDocument | FieldError> {
  const name = cleanFileName(file.name);
  if (!isAcceptedAttachmentName(name)) return { field: 'files', code: 'rights.extension_not_allowed', params: { name } };
  const extension = extensionOf(name) as RightsAttachmentExtension;
  const expected = CONTENT[extension];
  const detected = await fileTypeFromBuffer(file.buffer);
  const matches = detected?.ext === expected.detected && (extension !== 'doc' || file.buffer.includes(WORD_DOCUMENT_STREAM));
  if (!matches) return { field: 'files', code: 'rights.content_mismatch', params: { name, extension } };
  return { fileName: name, contentType: expected.contentType, size: file.buffer.length, content: file.buffer };
}

/**
 * The name as stored and later offered for download: without a folder, control characters or
 * surrounding spaces, and cut to the column's size with its extension kept.
 */
export function cleanFileName(raw: string): string {
  const name = (raw.split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '').trim();
  const chars = Array.from(name);
  if (chars.length <= MAX_FILE_NAME) return name;
  const extension = extensionOf(name);
  const kept = MAX_FILE_NAME - (extension ? extension.length + 1 : 0);
  return `${chars.slice(0, Math.max(kept, 1)).join('')}${extension ? `.${extension}` : ''}`;
}
