import notification from 'antd/es/notification';

/**
 * Tells the user that the work they asked for was queued as a background job (spec 8: "Operation
 * Completed Successfully"): its outcome, with its file, comes later in the notifications flyout.
 * Rendered inside the page's tree through `holder`, which the caller must render.
 */
export function useJobQueuedNotice() {
  const [toasts, holder] = notification.useNotification();
  return {
    show: (title: string, description: string) => toasts.success({ title, description }),
    holder,
  };
}
