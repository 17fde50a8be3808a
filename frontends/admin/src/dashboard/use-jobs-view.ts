import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageOf, type QueryError } from '../api/errors';
import { useJobsViewLinkMutation } from './jobs-view-link';

export interface JobsViewOpener {
  /** Opens the background jobs page in a new tab; call it from the click itself. */
  open(): void;
  /** The link is being asked for. */
  isLoading: boolean;
  /** Why the last opening failed, in the reader's language. */
  problem: string | undefined;
}

/**
 * Opens the background jobs page in a new tab without a token in any URL. The tab is opened at
 * once, within the click (one opened after an awaited call is a pop-up the browser blocks), then
 * sent to the one-time link the API answers; when the API refuses, the tab is closed again.
 */
export function useJobsViewOpener(): JobsViewOpener {
  const { t } = useTranslation(['admin', 'translation']);
  const [requestLink, { isLoading }] = useJobsViewLinkMutation();
  const [problem, setProblem] = useState<string>();

  const open = () => {
    setProblem(undefined);
    const tab = window.open('', '_blank');
    if (!tab) {
      setProblem(t('admin:dashboard.jobs.popupBlocked'));
      return;
    }
    // The page must not reach back into the console.
    tab.opener = null;
    requestLink()
      .unwrap()
      .then(
        ({ url }) => tab.location.replace(new URL(url, window.location.origin).href),
        (error: QueryError) => {
          tab.close();
          setProblem(errorMessageOf(error, t));
        },
      );
  };

  return { open, isLoading, problem };
}
