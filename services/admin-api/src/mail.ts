import { type AppContext } from '@gatehouse/core';
import { Mailer } from '@gatehouse/core/mail';

const mailers = new WeakMap<AppContext, Mailer>();

/**
 * The context's mailer for the administration API, one per context. Its retry worker is not
 * started: mails go to the shared outbox and are sent at once when SMTP is configured, and the
 * provider's worker retries failures.
 */
export function adminMailer(context: AppContext): Mailer {
  let mailer = mailers.get(context);
  if (!mailer) {
    mailer = new Mailer(context);
    mailers.set(context, mailer);
  }
  return mailer;
}
