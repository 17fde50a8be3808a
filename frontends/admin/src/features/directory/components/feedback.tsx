import message from 'antd/es/message';
import Modal from 'antd/es/modal';
import type { ReactNode } from 'react';
import { useDirectoryTranslation } from '../use-directory-translation';

export interface ConfirmOptions {
  title: string;
  content?: ReactNode;
  okText?: string;
  danger?: boolean;
}

/**
 * Confirmations and toasts of a page, rendered inside its tree (so they inherit its theme, locale
 * and i18n) through `holder`, which the page must render.
 */
export function useFeedback() {
  const { t } = useDirectoryTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const [toast, toastHolder] = message.useMessage();

  /** Resolves true when the user confirms. */
  const confirm = async ({ title, content, okText, danger = false }: ConfirmOptions): Promise<boolean> =>
    modal.confirm({
      title,
      content,
      okText: okText ?? t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger },
    });

  return {
    confirm,
    /** A message the user must acknowledge. */
    warn: (title: string, content?: ReactNode) => modal.warning({ title, content, okText: t('common.ok') }),
    success: (text: string) => void toast.success(text),
    error: (text: string) => void toast.error(text),
    holder: (
      <>
        {modalHolder}
        {toastHolder}
      </>
    ),
  };
}

export type Feedback = ReturnType<typeof useFeedback>;
