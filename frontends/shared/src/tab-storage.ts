/** The part of `Storage` the per-tab notes use. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * This tab's session storage, or undefined where the browser blocks site data (reading
 * `sessionStorage` then throws): what is kept there is only a convenience, never needed.
 */
export function tabStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
}
