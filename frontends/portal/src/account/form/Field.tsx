import type { ReactNode } from 'react';
import { useAccountTranslation, type AccountKey } from '../use-account-translation';

/** What a field's input needs to be tied to its label, its error and its help. */
export interface FieldInputProps {
  id: string;
  status: 'error' | undefined;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

export interface FieldProps {
  id: string;
  label: string;
  error: AccountKey | undefined;
  /** Help shown under the input and read with it. */
  extra?: ReactNode;
  /** Ids of other elements describing the input (the password rules, for instance). */
  describedBy?: string;
  children: (input: FieldInputProps) => ReactNode;
}

/** A labelled input with its error message, announced when it appears. */
export function Field({ id, label, error, extra, describedBy, children }: FieldProps) {
  const { t } = useAccountTranslation();
  const errorId = `${id}-error`;
  const extraId = `${id}-extra`;
  const describers = [error ? errorId : undefined, extra ? extraId : undefined, describedBy].filter(Boolean).join(' ');
  return (
    <div className="account-field">
      <label className="account-field__label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        status: error ? 'error' : undefined,
        'aria-invalid': Boolean(error),
        'aria-describedby': describers || undefined,
      })}
      {error ? (
        <div id={errorId} className="account-field__error" role="alert">
          {t(error)}
        </div>
      ) : null}
      {extra ? (
        <div id={extraId} className="account-field__extra">
          {extra}
        </div>
      ) : null}
    </div>
  );
}
