import type { Rule as FormRule } from 'antd/es/form';
import type { DirectoryT } from '../use-directory-translation';

/** The spec's rules of the user fields, shared by the New user and General properties forms. */
export function userFieldRules(t: DirectoryT) {
  const required = (message: string): FormRule => ({ required: true, whitespace: true, message });
  return {
    userName: [required(t('user.userNameRequired'))],
    email: [required(t('user.emailRequired')), { type: 'email', message: t('user.emailInvalid') }],
    firstName: [required(t('user.firstNameRequired'))],
    lastName: [required(t('user.lastNameRequired'))],
    areaId: [{ required: true, message: t('user.areaRequired') }],
    language: [{ required: true, message: t('user.languageRequired') }],
  } satisfies Record<string, FormRule[]>;
}

/** The confirmation equals the field `of`. */
export function confirmationRule(of: string, t: DirectoryT): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (value && value !== getFieldValue(of)) throw new Error(t('password.mismatch'));
    },
  });
}
