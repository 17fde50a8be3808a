import { RIGHTS_ATTACHMENTS_MAX_BYTES, isAcceptedAttachmentName } from '@gatehouse/contracts';
import type { Rule as FormRule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/** What the form knows of a chosen document: its name and its size in bytes. */
export interface ChosenDocument {
  name: string;
  size?: number;
}

/**
 * What is wrong with the chosen documents, checked before sending as the server checks them again:
 * a type that is not accepted (by name: the server also reads the content), or more than 2 MB in
 * all. Undefined when they may be sent.
 */
export function documentsProblem(documents: readonly ChosenDocument[], t: TFunction<'portal'>): string | undefined {
  const refused = documents.filter((document) => !isAcceptedAttachmentName(document.name)).map((document) => document.name);
  if (refused.length) return t('rights.errors.fileType', { names: refused.join(', ') });
  const total = documents.reduce((sum, document) => sum + (document.size ?? 0), 0);
  if (total > RIGHTS_ATTACHMENTS_MAX_BYTES) return t('rights.errors.tooLarge');
  return undefined;
}

/** The spec's rules of the rights request form (section 5), in the interface's language. */
export function rightsFormRules(t: TFunction<'portal'>) {
  const required = (message: string): FormRule => ({ required: true, whitespace: true, message });
  return {
    requestDate: [{ required: true, message: t('rights.errors.requestDate') }],
    fullName: [required(t('rights.errors.fullName'))],
    email: [required(t('rights.errors.email')), { type: 'email', message: t('rights.errors.emailInvalid') }],
    requestType: [{ required: true, message: t('rights.errors.requestType') }],
    rightsToExcercise: [{ required: true, type: 'array', min: 1, message: t('rights.errors.rights') }],
    files: [
      { required: true, type: 'array', min: 1, message: t('rights.errors.documents') },
      {
        validator: async (_rule, documents: readonly ChosenDocument[] | undefined) => {
          const problem = documentsProblem(documents ?? [], t);
          if (problem) throw new Error(problem);
        },
      },
    ],
  } satisfies Record<string, FormRule[]>;
}
