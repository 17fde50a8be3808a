import type { Phrases } from './messages.js';

/** The groups of the server's messages whose keys are error codes (the rest name columns and mail parts). */
type ErrorGroups = 'errors' | 'access' | 'account' | 'externalLogin' | 'password' | 'users' | 'validation' | 'groups' | 'import' | 'avatar' | 'rights' | 'securityConfig' | 'inspector' | 'pats' | 'appRoles' | 'applications' | 'tenants' | 'logs' | 'identifyAs' | 'operationRequests' | 'clients' | 'serviceManager' | 'external' | 'webhooks' | 'scimTokens' | 'samlApplications';

/** `a.b.c` for every string leaf of a phrase tree. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A plural phrase (`x_one`, `x_other`) is one code, `x`, chosen by its `count`. */
type WithoutPlural<K extends string> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

/**
 * Every error code the API may answer in `code` or in `errors[].code`; each is also the key of its
 * message, in the caller's language. A code that is not in the English catalogue is a type error.
 */
export type ErrorCode = WithoutPlural<Leaves<Pick<Phrases, ErrorGroups>>>;

/** The API's error body. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  errors: Array<{ field: string; code: ErrorCode; message: string }>;
  requestId: string;
}
