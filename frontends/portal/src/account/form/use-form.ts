import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { AccountKey } from '../use-account-translation';

/** A check of one field: the key of the message to show, or undefined when the value is fine. */
export type Rule<V> = (value: V[keyof V], values: V) => AccountKey | undefined;

export type Rules<V> = Partial<Record<keyof V & string, ReadonlyArray<Rule<V>>>>;

export interface FormState<V extends Record<string, unknown>> {
  values: V;
  /** Message keys, translated when rendered so a language switch translates them too. */
  errors: Partial<Record<keyof V & string, AccountKey>>;
  setValue: <K extends keyof V & string>(name: K, value: V[K]) => void;
  /** Checks every field; shows the errors and focuses the first field in error. */
  validate: () => boolean;
  /** The id of a field's input, for its label and for focusing it. */
  fieldId: (name: keyof V & string) => string;
  focus: (name: keyof V & string) => void;
  /** Changes values without judging them: errors are cleared until the next submit. */
  reset: (values: Partial<V>) => void;
}

/**
 * The few forms of the sign-in page need required fields, a pattern and a confirmation: a small
 * hook does that, where antd's Form would add a form engine and a validation library to the first
 * page every user loads. Like antd's, errors appear on submit and then follow every change.
 * `rules` is read as given on each check: declare it once, outside the component.
 */
export function useForm<V extends Record<string, unknown>>(initialValues: V, rules: Rules<V>): FormState<V> {
  const formId = useId();
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FormState<V>['errors']>({});
  const submitted = useRef(false);

  const check = useCallback((current: V) => {
    const found: FormState<V>['errors'] = {};
    for (const [name, fieldRules] of Object.entries(rules) as Array<[keyof V & string, ReadonlyArray<Rule<V>>]>) {
      for (const rule of fieldRules) {
        const error = rule(current[name], current);
        if (error) {
          found[name] = error;
          break;
        }
      }
    }
    return found;
  }, [rules]);

  const fieldId = useCallback((name: keyof V & string) => `${formId}-${name}`, [formId]);
  const focus = useCallback((name: keyof V & string) => document.getElementById(fieldId(name))?.focus(), [fieldId]);

  const setValue = useCallback(<K extends keyof V & string>(name: K, value: V[K]) => {
    setValues((previous) => ({ ...previous, [name]: value }));
  }, []);

  // Once the user has tried to submit, errors follow the values (a confirmation follows both fields).
  useEffect(() => {
    if (submitted.current) setErrors(check(values));
  }, [check, values]);

  const validate = useCallback(() => {
    submitted.current = true;
    const found = check(values);
    setErrors(found);
    const first = Object.keys(rules).find((name) => found[name as keyof V & string]);
    if (first) focus(first as keyof V & string);
    return !first;
  }, [check, focus, rules, values]);

  const reset = useCallback((changes: Partial<V>) => {
    submitted.current = false;
    setErrors({});
    setValues((previous) => ({ ...previous, ...changes }));
  }, []);

  return { values, errors, setValue, validate, fieldId, focus, reset };
}

/** Filled in, spaces alone not counting. */
export const required =
  <V,>(message: AccountKey): Rule<V> =>
  (value) =>
    typeof value === 'string' && value.trim() ? undefined : message;

export const matches =
  <V,>(pattern: RegExp, message: AccountKey): Rule<V> =>
  (value) =>
    typeof value === 'string' && pattern.test(value) ? undefined : message;

/** Not empty; unlike `required`, spaces count (a password may hold nothing else). */
export const filled =
  <V,>(message: AccountKey): Rule<V> =>
  (value) =>
    typeof value === 'string' && value.length > 0 ? undefined : message;
