import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';

// antd's Modal is the heaviest piece these pages would load up front, for dialogs that most visits
// never open: it comes with the first dialog instead.
const MessageDialog = lazy(() => import('./MessageDialog'));

export interface DialogSpec {
  type: 'info' | 'success' | 'error' | 'warning' | 'confirm';
  title: string;
  content: ReactNode;
  okText: string;
  /** Confirm dialogs only. */
  cancelText?: string;
  /** Runs on OK (and, except for confirmations, on Escape); while its promise runs OK stays busy. */
  onOk?: () => void | Promise<void>;
}

/**
 * Opens one message dialog at a time, like antd's `modal.confirm()`, but rendered in this tree
 * (so it follows the theme and locale) and loaded on first use. Render `holder` once.
 */
export function useDialogs(): { open: (spec: DialogSpec) => void; holder: ReactNode } {
  const [current, setCurrent] = useState<{ spec: DialogSpec; id: number } | undefined>();
  const open = useCallback((spec: DialogSpec) => setCurrent((shown) => ({ spec, id: (shown?.id ?? 0) + 1 })), []);
  // A dialog's OK may open the next one: closing clears only the dialog that asked.
  const close = useCallback((id: number) => setCurrent((shown) => (shown?.id === id ? undefined : shown)), []);
  const holder = current ? (
    <Suspense fallback={null}>
      {/* Keyed: the next dialog starts afresh rather than inheriting the busy OK of the last. */}
      <MessageDialog key={current.id} spec={current.spec} onClose={() => close(current.id)} />
    </Suspense>
  ) : null;
  return { open, holder };
}
