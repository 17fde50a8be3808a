import type { FormInstance } from 'antd/es/form';
import Modal from 'antd/es/modal';
import { useState, type ReactNode } from 'react';
import { useDirectoryTranslation } from '../use-directory-translation';
import { ErrorAlert } from './ErrorAlert';
import { showFieldErrors } from './errors';

/** What an RTK Query mutation resolves to: `{ data }` or `{ error }`. */
export type CallResult = { data?: unknown; error?: unknown };

/** The data of a call's success. */
type SuccessData<R extends CallResult> = Extract<R, { error?: undefined }>['data'];

/**
 * The server round trip of a dialog's form. `send` clears the last error, makes the call and, on
 * failure, puts the server's field errors under `fields` of the form, or shows the error above
 * the form (`error`) when some of them belong to no field; on success it hands the answer on.
 */
export function useFormSubmit(form: FormInstance, fields: readonly string[]) {
  const [error, setError] = useState<unknown>();

  const send = async <R extends CallResult>(call: () => PromiseLike<R>, onDone: (data: SuccessData<R>) => void): Promise<void> => {
    setError(undefined);
    const result = await call();
    if (result.error) {
      if (!showFieldErrors(form, result.error, fields)) setError(result.error);
      return;
    }
    onDone(result.data as SuccessData<R>);
  };

  return { error, setError, send };
}

export interface FormDialogProps {
  title: string;
  okText: string;
  /** The dialog's width in px (antd's default, 520, without it). */
  width?: number;
  /** The form the OK button submits. */
  form: FormInstance;
  /** While the call is under way. */
  loading: boolean;
  /** The error shown above the form. */
  error: unknown;
  /** See {@link ErrorAlert}. */
  explains403?: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** A dialog around a form (mounted while open): OK submits the form, Cancel closes. */
export function FormDialog({ title, okText, width, form, loading, error, explains403, onClose, children }: FormDialogProps) {
  const { t } = useDirectoryTranslation();
  return (
    <Modal
      open
      width={width}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      confirmLoading={loading}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <ErrorAlert error={error} explains403={explains403} className="directory-form-error" />
      {children}
    </Modal>
  );
}
