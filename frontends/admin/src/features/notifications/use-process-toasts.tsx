import LoadingOutlined from '@ant-design/icons/LoadingOutlined';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { useEffect, useMemo, useRef, useState } from 'react';
import { relativeTime } from '../pats/pat-format';
import { useActiveTasksQuery, type ActiveTask } from './notifications-api';
import { useNotificationsTranslation } from './use-notifications-translation';

/** How often the running processes are reread while one is shown. */
export const PROCESS_POLL_MS = 4000;

interface Pushed {
  task: ActiveTask;
  /** When the hub told of it (epoch ms). */
  at: number;
}

const toastKey = (id: string) => `process:${id}`;

/**
 * The user's running background processes as persistent toasts (spec 4): those the task list
 * names, and those the hub announces. A toast closes once a reading of the list that started after
 * its last announcement no longer names the process; the list is reread every few seconds while
 * any is shown. Answers `announce`, for the hub's NewProcess, and `refresh`.
 */
export function useProcessToasts(toasts: NotificationInstance) {
  const { t, i18n, typeLabel } = useNotificationsTranslation();
  const [pushed, setPushed] = useState<Pushed[]>([]);
  const { data, isFetching, startedTimeStamp, refetch } = useActiveTasksQuery();

  const shown = useMemo(() => {
    const listed = new Map((data?.items ?? []).map((task) => [task.id, task]));
    // The list read since an announcement is the authority on it; until then the announcement is.
    const answeredSince = (at: number) => !isFetching && data !== undefined && (startedTimeStamp ?? 0) >= at;
    for (const { task, at } of pushed) if (!answeredSince(at)) listed.set(task.id, task);
    return [...listed.values()];
  }, [data, isFetching, startedTimeStamp, pushed]);
  // A second subscription to the same list, polling only while a process is shown.
  useActiveTasksQuery(undefined, { pollingInterval: PROCESS_POLL_MS, skip: shown.length === 0 });

  const open = useRef(new Set<string>());
  useEffect(() => {
    const now = Date.now();
    const ids = new Set(shown.map((task) => task.id));
    for (const id of open.current) if (!ids.has(id)) toasts.destroy(toastKey(id));
    for (const task of shown) {
      const progress = task.total ? ` · ${t('processes.progress', { progress: task.progress, total: task.total })}` : '';
      toasts.open({
        key: toastKey(task.id),
        duration: 0,
        closable: false,
        icon: <LoadingOutlined aria-hidden spin />,
        title: t(task.status === 'Queued' ? 'processes.queued' : 'processes.running', { type: typeLabel(task.type) }),
        description: `${t('processes.started', { when: relativeTime(task.startTime, i18n.language, now) })}${progress}`,
      });
    }
    open.current = ids;
  }, [shown, toasts, t, typeLabel, i18n.language]);

  return {
    announce(task: ActiveTask) {
      const at = Date.now();
      setPushed((previous) => [...previous.filter((entry) => entry.task.id !== task.id && entry.at > (startedTimeStamp ?? 0)), { task, at }]);
      void refetch();
    },
    refresh() {
      void refetch();
    },
  };
}
