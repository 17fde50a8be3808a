import { z } from 'zod';
import { RIGHTS, RIGHTS_REQUEST_TYPES } from '../domain.js';
import type { ErrorCode } from '../errors.js';
import { defineRoute, type RouteContract } from '../route.js';
import { profileSuccessSchema } from './profile.js';
import { RIGHTS_TEXT_LIMITS as MAX } from './rights-rules.js';

export type Right = (typeof RIGHTS)[number];
export type RightsRequestType = (typeof RIGHTS_REQUEST_TYPES)[number];

const DAY = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** A `DD/MM/YYYY` day as `YYYY-MM-DD`, or undefined when it is not a day of the calendar (31/02/2025). */
export function isoDayOf(text: string): string | undefined {
  const match = DAY.exec(text.trim());
  if (!match) return undefined;
  const [, day, month, year] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const iso = `${year}-${month}-${day}`;
  return Number(year) >= 1900 && date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || null);

/** The rights arrive as a JSON list in one form field; a list sent as repeated fields is taken too. */
function rightsList(value: unknown): unknown {
  let list = value;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return Array.isArray(list) ? [...new Set(list)] : list;
}

/**
 * The text fields of a rights request (multipart form fields, all strings). The request date is
 * answered as `YYYY-MM-DD`; blank optional texts as null; the rights without duplicates.
 */
export const rightsRequestFieldsSchema = z.object({
  requestDate: z
    .string()
    .trim()
    .transform((text, ctx) => {
      const day = isoDayOf(text);
      if (day === undefined) ctx.addIssue({ code: 'custom', message: 'expected a day written DD/MM/YYYY', input: text });
      return day ?? '';
    }),
  fullName: z.string().trim().min(1).max(MAX.fullName),
  // pipe: a blank address is reported once, as missing, not also as malformed.
  email: z.string().trim().min(1).max(MAX.email).pipe(z.email()),
  requestType: z.enum(RIGHTS_REQUEST_TYPES),
  representativeData: optionalText(MAX.representativeData),
  requestDetails: optionalText(MAX.requestDetails),
  rightsToExcercise: z.preprocess(rightsList, z.array(z.enum(RIGHTS)).min(1).max(RIGHTS.length)),
});
export type RightsRequestFields = z.output<typeof rightsRequestFieldsSchema>;

/** The spec's message for each required field left out or blank (section 5). */
export const RIGHTS_REQUEST_REQUIRED = {
  requestDate: 'rights.request_date_required',
  fullName: 'rights.full_name_required',
  email: 'rights.email_required',
  requestType: 'rights.request_type_required',
  rightsToExcercise: 'rights.right_required',
} as const satisfies Readonly<Record<string, ErrorCode>>;

/** What the portal's form sends, as `FormData` entries (besides the files under `files[]`). */
export interface RightsRequestForm {
  email: string;
  fullName: string;
  representativeData?: string;
  /** DD/MM/YYYY. */
  requestDate: string;
  requestDetails?: string;
  /** A JSON list of {@link Right}. */
  rightsToExcercise: string;
  requestType: RightsRequestType;
}

/** `POST /api/v1/profile/excerciseRights` (the spec's spelling): exercising one's data-protection rights. */
export const rightsRoutes = {
  exerciseRights: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/excerciseRights',
    endpoint: 'profile.exerciseRights',
    access: 'signed-in',
    summary:
      'Sends a data-protection rights request (multipart: email, fullName, representativeData, requestDate as DD/MM/YYYY, requestDetails, rightsToExcercise as a JSON list, requestType Direct or Representative, and the identification documents as files[]: pdf, doc, docx, png, jpg or jpeg, 2 MB in all); 429 past 10 requests an hour',
    consumes: 'multipart/form-data',
    required: RIGHTS_REQUEST_REQUIRED,
    response: profileSuccessSchema,
  }),
} satisfies Record<string, RouteContract>;
