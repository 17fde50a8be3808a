/** The schema URI of a SCIM error response (RFC 7644 §3.12). */
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The `scimType` values of RFC 7644 §3.12, table 9. */
export const SCIM_TYPES = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
] as const;

export type ScimType = (typeof SCIM_TYPES)[number];

/** A refusal answered as a SCIM error body with the HTTP status `status`. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

/** The JSON of a SCIM error response: `status` is a string, `scimType` only when there is one. */
export interface ScimErrorBody {
  schemas: [typeof ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail: string;
}

/** The error body of `error`; anything but a ScimError is a 500 whose detail reveals nothing. */
export function toScimErrorBody(error: unknown): ScimErrorBody {
  if (!(error instanceof ScimError)) return { schemas: [ERROR_SCHEMA], status: '500', detail: 'internal error' };
  const status = String(error.status);
  if (!error.scimType) return { schemas: [ERROR_SCHEMA], status, detail: error.detail };
  return { schemas: [ERROR_SCHEMA], status, scimType: error.scimType, detail: error.detail };
}
