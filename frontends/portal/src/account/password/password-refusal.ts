import { useCallback, useMemo } from 'react';
import type { ServerFieldError } from '../account-api';
import { useTimedMessages } from '../use-timed-messages';
import type { NewPasswordValues } from './NewPasswordFields';
import { usePasswordRules, type PasswordRule } from './password-rules';

type Field = keyof NewPasswordValues & string;

/** One message of a refusal, with the field it is about and the values it judged, when it says. */
interface RefusalEntry {
  message: string;
  field?: Field;
  code?: string;
  judged: NewPasswordValues;
}

export interface RefusalDetails {
  /** Which field each message is about (`fieldErrors` of the answer). */
  fieldErrors: readonly ServerFieldError[];
  /** The values the server refused. */
  judged: NewPasswordValues;
}

type Recheck = (values: NewPasswordValues) => boolean;

/** The server's refusals the page can check again as the user types (with the policy in force's rules): true while they still hold. */
function rechecksOf(rules: readonly PasswordRule[]): Readonly<Record<string, Recheck>> {
  return {
    'password.required': ({ newPassword }) => newPassword.length === 0,
    'password.confirm_required': ({ confirmPassword }) => confirmPassword.length === 0,
    'password.mismatch': ({ newPassword, confirmPassword }) => newPassword !== confirmPassword,
    ...Object.fromEntries(
      rules.flatMap(({ test, serverCode }) => (test && serverCode ? [[serverCode, (values: NewPasswordValues) => !test(values.newPassword)]] : [])),
    ),
  };
}

const isField = (field: string): field is Field => field === 'newPassword' || field === 'confirmPassword';

function entriesOf(messages: readonly string[], details: RefusalDetails | undefined): RefusalEntry[] {
  const judged = details?.judged ?? { newPassword: '', confirmPassword: '' };
  const unmatched = [...(details?.fieldErrors ?? [])];
  return messages.map((message) => {
    const index = unmatched.findIndex((error) => error.message === message);
    const [about] = index >= 0 ? unmatched.splice(index, 1) : [];
    return about && isField(about.field) ? { message, field: about.field, code: about.code, judged } : { message, judged };
  });
}

/**
 * A message about a field holds while the rule it names is still broken (checked again here), or,
 * for a rule only the server can judge (a recent password), while that field is unchanged. The
 * others hold until they time out.
 */
function stillHolds(entry: RefusalEntry, values: NewPasswordValues, rechecks: Readonly<Record<string, Recheck>>): boolean {
  if (!entry.field) return true;
  const recheck = entry.code ? rechecks[entry.code] : undefined;
  return recheck ? recheck(values) : values[entry.field] === entry.judged[entry.field];
}

/**
 * The server's refusal of a new password, shown for the spec's 10 seconds; a message about one of
 * the two fields goes as soon as what is typed no longer breaks its rule (the confirmation's "do
 * not match" as soon as either field makes them match).
 */
export function useNewPasswordRefusal(values: NewPasswordValues): [string[], (messages: string[], details?: RefusalDetails) => void] {
  const [entries, setEntries] = useTimedMessages<RefusalEntry>();
  const rules = usePasswordRules();
  const rechecks = useMemo(() => rechecksOf(rules), [rules]);
  const show = useCallback((messages: string[], details?: RefusalDetails) => setEntries(entriesOf(messages, details)), [setEntries]);
  return [entries.filter((entry) => stillHolds(entry, values, rechecks)).map((entry) => entry.message), show];
}
