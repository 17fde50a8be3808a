import FileExcelOutlined from '@ant-design/icons/FileExcelOutlined';
import Button from 'antd/es/button';
import { useState } from 'react';
import type { ListQuery } from '../../api/admin-api';
import { useJobQueuedNotice } from '../../shell/use-job-queued-notice';
import { errorMessage } from '../directory/components/errors';
import type { Feedback } from '../directory/components/feedback';
import { toListQuery, useListState, type ListState, type ListStateHook } from '../directory/components/list-state';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { useLogsTranslation } from './use-logs-translation';

/** Where each tab's query (filters, page, sort) is remembered, in the lists' pattern of keys. */
export const LOG_LIST_KEYS = {
  authentication: 'IDENTITY-LOGS-AUTHENTICATION-LIST',
  system: 'IDENTITY-LOGS-SYSTEM-LIST',
  session: 'IDENTITY-LOGS-SESSION-LIST',
  externalApiAccess: 'IDENTITY-LOGS-EXTERNAL-API-LIST',
} as const;

/** A tab's list: newest first unless the user sorts otherwise (spec 9), remembered for the browser tab. */
export function useLogList(kind: keyof typeof LOG_LIST_KEYS): ListStateHook {
  return useListState(LOG_LIST_KEYS[kind], { sort: { field: 'date', direction: 'desc' } });
}

/** The API's parameters of a tab's list. */
export function logQueryOf(state: ListState): ListQuery {
  return toListQuery(state);
}

/** The same filters and sort without the page: what an export takes. */
export function exportQueryOf(state: ListState): ListQuery {
  return { ...toListQuery(state), skip: undefined, top: undefined };
}

/**
 * A tab's export button: queues the export of the whole filtered list, in its order, as a
 * background job and says so; the file comes later in the notifications flyout.
 */
export function ExportButton({ start, feedback }: { start: () => Promise<unknown>; feedback: Feedback }) {
  const { t } = useLogsTranslation();
  const { t: td } = useDirectoryTranslation();
  const queued = useJobQueuedNotice();
  const [busy, setBusy] = useState(false);
  const run = () => {
    setBusy(true);
    start()
      .then(
        () => queued.show(t('export.queuedTitle'), t('export.queuedText')),
        // The server says why: too many rows, a date range the wrong way round.
        (failure: unknown) => feedback.error(errorMessage(failure, td)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Button icon={<FileExcelOutlined />} loading={busy} onClick={run}>
        {t('export.button')}
      </Button>
      {queued.holder}
    </>
  );
}

/** A row's metadata as indented JSON; nothing for an empty one. */
export function MetadataView({ metadata }: { metadata: Record<string, unknown> }) {
  const { t } = useLogsTranslation();
  if (Object.keys(metadata).length === 0) return null;
  return (
    <figure className="logs-details">
      <figcaption className="logs-details__title">{t('details.metadata')}</figcaption>
      <pre className="logs-metadata">{JSON.stringify(metadata, null, 2)}</pre>
    </figure>
  );
}
