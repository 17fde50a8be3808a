import Modal from 'antd/es/modal';
import Progress from 'antd/es/progress';
import { useState, type ReactElement } from 'react';
import { useDirectoryTranslation } from '../use-directory-translation';
import { ErrorAlert } from './ErrorAlert';
import type { Feedback } from './feedback';

interface Run {
  total: number;
  deleted: number;
  failed: number;
  lastError: unknown;
  done: boolean;
}

export interface BulkDeleteOptions {
  feedback: Feedback;
  /** Deletes one element; a rejection counts it as failed. */
  remove: (id: string) => Promise<unknown>;
  /** After the last one, deleted or not (reload the list, clear the selection). */
  onFinished: () => void;
}

/**
 * The spec's bulk delete: after a confirmation, deletes the elements one by one while a dialog
 * counts those deleted and those that failed. One at a time keeps the server's load flat and lets
 * the count advance visibly; a failure does not stop the others.
 */
export function useBulkDelete({ feedback, remove, onFinished }: BulkDeleteOptions): {
  start: (ids: string[]) => Promise<void>;
  dialog: ReactElement;
} {
  const { t } = useDirectoryTranslation();
  const [run, setRun] = useState<Run | null>(null);

  const start = async (ids: string[]) => {
    if (!ids.length) return;
    const confirmed = await feedback.confirm({
      title: t('bulkDelete.confirm', { count: ids.length }),
      content: t('bulkDelete.confirmText'),
      okText: t('common.delete'),
      danger: true,
    });
    if (!confirmed) return;
    let progress: Run = { total: ids.length, deleted: 0, failed: 0, lastError: undefined, done: false };
    setRun(progress);
    for (const id of ids) {
      try {
        await remove(id);
        progress = { ...progress, deleted: progress.deleted + 1 };
      } catch (error) {
        progress = { ...progress, failed: progress.failed + 1, lastError: error };
      }
      setRun(progress);
    }
    onFinished();
    if (progress.deleted) feedback.success(t('bulkDelete.done', { count: progress.deleted }));
    // Failures stay on screen until read; a clean run needs no second look.
    setRun(progress.failed ? { ...progress, done: true } : null);
  };

  const dialog = (
    <Modal
      open={run !== null}
      title={t('bulkDelete.progressTitle')}
      closable={run?.done ?? false}
      mask={{ closable: false }}
      keyboard={false}
      onCancel={() => setRun(null)}
      onOk={() => setRun(null)}
      okButtonProps={{ disabled: !run?.done }}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('common.close')}
    >
      {run ? (
        <>
          <Progress
            percent={Math.round(((run.deleted + run.failed) / run.total) * 100)}
            status={run.done && run.failed ? 'exception' : run.done ? 'success' : 'active'}
          />
          <p role="status">{t('bulkDelete.progress', { deleted: run.deleted, failed: run.failed, total: run.total })}</p>
          <ErrorAlert error={run.lastError} />
        </>
      ) : null}
    </Modal>
  );

  return { start, dialog };
}
