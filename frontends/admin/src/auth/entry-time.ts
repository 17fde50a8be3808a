import { tabStorage, type TabStorage } from '@gatehouse/frontend-shared';

/**
 * When the person asked for the console in this tab before a sign-in took them away: the spec's
 * one-second splash counts from there, so coming back from the sign-in (which took longer than a
 * second) shows the console at once, while a visit of someone already signed in keeps the splash.
 */
export const ENTERED_AT_KEY = 'gatehouse.admin.enteredAt';

type EntryStorage = TabStorage;

/** Notes the moment of the first request for the console before a sign-in (a later one keeps the first). */
export function noteEntry(storage: EntryStorage | undefined = tabStorage(), now: number = Date.now()): void {
  try {
    if (!storage?.getItem(ENTERED_AT_KEY)) storage?.setItem(ENTERED_AT_KEY, String(now));
  } catch {
    // Without storage, the splash counts from the page's load.
  }
}

/**
 * The noted entry as a `performance.now()` reading of this page (negative: before it loaded);
 * undefined when none was noted.
 */
export function readEntry(storage: EntryStorage | undefined = tabStorage()): number | undefined {
  try {
    const noted = Number(storage?.getItem(ENTERED_AT_KEY));
    if (!Number.isFinite(noted) || noted <= 0) return undefined;
    // Both clocks read now: the wall clock's distance to the entry, on the page's own timeline.
    return performance.now() - (Date.now() - noted);
  } catch {
    return undefined;
  }
}

/** Forgets the noted entry once the person is signed in: a later visit gets its own splash. */
export function forgetEntry(storage: EntryStorage | undefined = tabStorage()): void {
  try {
    storage?.removeItem(ENTERED_AT_KEY);
  } catch {
    // Nothing was kept.
  }
}
