// The rules of a data-protection rights request that the portal's form applies before sending and
// the server applies again. Plain values, no schema: the browser imports them without zod.

/** The spec's attachment limit (section 9): 2 MB (2097152 bytes) over all the documents of one request. */
export const RIGHTS_ATTACHMENTS_MAX_BYTES = 2 * 1024 * 1024;

/** The document types a rights request accepts, by file extension (the server checks the content too). */
export const RIGHTS_ATTACHMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'png', 'jpg', 'jpeg'] as const;
export type RightsAttachmentExtension = (typeof RIGHTS_ATTACHMENT_EXTENSIONS)[number];

/** Identification documents one request may carry. */
export const RIGHTS_MAX_FILES = 10;

/** The longest text each field may hold (the columns of `rights_requests`; details are bounded here). */
export const RIGHTS_TEXT_LIMITS = { fullName: 200, email: 256, representativeData: 2000, requestDetails: 4000 } as const;

/** How the request date is written in the form and sent: day/month/year. */
export const RIGHTS_REQUEST_DATE_FORMAT = 'DD/MM/YYYY';

/** The extension of a file name, lower-case, without the dot ('' when it has none). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** Whether a file name has one of the accepted extensions. */
export function isAcceptedAttachmentName(fileName: string): boolean {
  return (RIGHTS_ATTACHMENT_EXTENSIONS as readonly string[]).includes(extensionOf(fileName));
}
