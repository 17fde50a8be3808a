import { useSearchParams } from 'react-router';

function stored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, tab: string): void {
  try {
    sessionStorage.setItem(key, tab);
  } catch {
    // A blocked storage only costs the remembered tab.
  }
}

/**
 * A page's active tab: the address's `?tab=` (a link, the way back from a detail page), else the one
 * last chosen in this browser tab (sessionStorage under `storageKey`), else `fallback`. Choosing one
 * writes both.
 */
export function useRememberedTab<T extends string>(tabs: readonly T[], storageKey: string, fallback: T): [T, (tab: T) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const isTab = (value: unknown): value is T => (tabs as readonly unknown[]).includes(value);
  const fromUrl = searchParams.get('tab');
  const remembered = stored(storageKey);
  const active = isTab(fromUrl) ? fromUrl : isTab(remembered) ? remembered : fallback;
  const choose = (tab: T) => {
    store(storageKey, tab);
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
  };
  return [active, choose];
}
