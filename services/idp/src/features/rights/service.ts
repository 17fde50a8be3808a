import { AppError, DEFAULT_LANGUAGE, parseInput, type AppContext, type FieldError } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import { RIGHTS, RIGHTS_REQUEST_REQUIRED, rightsRequestFieldsSchema, type ProfileSuccess, type RightsRequestFields } from '@gatehouse/contracts';
import { checkDocuments, type CheckedDocument } from './documents.js';
import type { RightsForm } from './form-upload.js';
import { findRequester, insertRightsRequest, lockRequester, requestsInLastHour, type RequesterRow, type RightsDb } from './repository.js';

/** Requests one user may send in an hour; past it, 429 until the oldest leaves the hour. */
export const RIGHTS_REQUESTS_PER_HOUR = 10;

const DONE: ProfileSuccess = { success: true, errors: [] };

/** A checked request, ready to store. */
interface CheckedRequest {
  fields: RightsRequestFields;
  documents: CheckedDocument[];
}

/**
 * Exercising one's data-protection rights: the request and its identification documents are
 * checked, stored together, and summed up in a mail to the data-protection address when one is
 * configured. The documents are not attached to that mail: identity papers would then sit in
 * mailboxes beyond the product's access control and its deletion; Administrators download them
 * from the request instead.
 */
export class RightsService {
  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
  ) {}

  /** Refuses (429) a user who has already sent RIGHTS_REQUESTS_PER_HOUR requests in the last hour. */
  async assertMayRequest(accountId: string, db: RightsDb = this.context.dataSource): Promise<void> {
    const recent = await requestsInLastHour(db, accountId);
    if (recent.count >= RIGHTS_REQUESTS_PER_HOUR) throw new AppError('errors.too_many_requests', 429, { retryAfter: recent.retryAfter });
  }

  /** Checks, stores and announces the request; a 400 lists every problem found with it. */
  async submit(accountId: string, form: RightsForm): Promise<ProfileSuccess> {
    const requester = await findRequester(this.context.dataSource, accountId);
    if (!requester) throw new AppError('errors.unauthorized', 401);
    const request = await checkRequest(form);
    const stored = await this.context.dataSource.transaction(async (em) => {
      // Counted again under the lock: parallel requests cannot pass the limit together.
      await lockRequester(em, accountId);
      await this.assertMayRequest(accountId, em);
      return insertRightsRequest(em, accountId, request.fields, request.documents);
    });
    await this.announce({ id: stored.id, receivedAt: stored.created_at }, requester, request);
    return DONE;
  }

  /**
   * Mails the summary to the data-protection address, in the product's default language. The
   * request is stored whatever happens here: a mail that cannot even be queued is logged, and
   * Administrators still find the request in the administration API.
   */
  private async announce(stored: { id: string; receivedAt: Date }, requester: RequesterRow, request: CheckedRequest): Promise<void> {
    const to = this.context.config.mail.dataProtectionEmail;
    if (!to) return;
    const { fields, documents } = request;
    try {
      await this.mailer.send({
        to,
        template: 'rights-request',
        language: DEFAULT_LANGUAGE,
        params: {
          reference: stored.id,
          fullName: fields.fullName,
          email: fields.email,
          account: requester.user_name,
          requestType: fields.requestType,
          representativeData: fields.representativeData ?? '',
          requestDate: fields.requestDate.split('-').reverse().join('/'),
          rights: fields.rightsToExcercise.join(', '),
          requestDetails: fields.requestDetails ?? '',
          documents: documents.map((d) => `${d.fileName} (${Math.max(1, Math.round(d.size / 1024))} KB)`).join(', '),
          receivedAt: stored.receivedAt,
        },
      });
    } catch (error) {
      this.context.logger.error({ err: (error as Error).message, rightsRequestId: stored.id }, 'the rights request mail could not be queued');
    }
  }
}

/** The request's fields and documents, or a 400 listing every problem with both, in the spec's words. */
async function checkRequest(form: RightsForm): Promise<CheckedRequest> {
  const problems: FieldError[] = [];
  let fields: RightsRequestFields | undefined;
  try {
    fields = parseInput(rightsRequestFieldsSchema, form.fields, RIGHTS_REQUEST_REQUIRED);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problems.push(...inSpecWords(error.errors));
  }
  const { documents, problems: documentProblems } = await checkDocuments(form.files);
  problems.push(...documentProblems);
  if (!fields || problems.length > 0) throw new AppError('errors.validation', 400, {}, problems);
  return { fields, documents };
}

/** One problem per field, said as the spec says it where it has words for it. */
function inSpecWords(errors: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  const said: FieldError[] = [];
  for (const error of errors) {
    // A problem with one entry of the rights list is a problem with the list.
    const field = error.field.split('.')[0]!;
    if (seen.has(field)) continue;
    seen.add(field);
    said.push(specWording({ ...error, field }));
  }
  return said;
}

function specWording(error: FieldError): FieldError {
  const { field, code } = error;
  if (code.startsWith('rights.')) return error;
  if (field === 'email' && code === 'validation.invalid_email') return { field, code: 'rights.email_invalid' };
  if (field === 'requestDate' && code === 'validation.invalid') return { field, code: 'rights.request_date_invalid' };
  if (field === 'rightsToExcercise') {
    return code === 'validation.too_small' ? { field, code: 'rights.right_required' } : { field, code: 'rights.rights_invalid', params: { options: RIGHTS.join(', ') } };
  }
  return error;
}
