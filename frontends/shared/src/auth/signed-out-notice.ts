import { tabStorage, type TabStorage } from '../tab-storage';

/**
 * "Login has successfully ended": a sign-out in this tab leaves a note that the sign-in page it
 * ends on reads once. The note lives in this tab's session storage only, and says nothing about
 * any account.
 */
export const SIGNED_OUT_NOTICE_KEY = 'gatehouse.signedOutNotice';

type NoticeStorage = TabStorage;

/** Notes that this tab is signing out. */
export function noteSignedOut(storage: NoticeStorage | undefined = tabStorage()): void {
  try {
    storage?.setItem(SIGNED_OUT_NOTICE_KEY, '1');
  } catch {
    // A full or blocked storage only loses the notice.
  }
}

/** Whether this tab has just signed out (the note stays until `forgetSignedOut`). */
export function hasSignedOutNotice(storage: NoticeStorage | undefined = tabStorage()): boolean {
  try {
    return storage?.getItem(SIGNED_OUT_NOTICE_KEY) === '1';
  } catch {
    return false;
  }
}

/** The notice was shown: a later visit of the sign-in page does not show it again. */
export function forgetSignedOut(storage: NoticeStorage | undefined = tabStorage()): void {
  try {
    storage?.removeItem(SIGNED_OUT_NOTICE_KEY);
  } catch {
    // Nothing to forget.
  }
}
