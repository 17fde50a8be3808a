import { useCallback, useSyncExternalStore } from 'react';

/** The spec's breakpoint: the top bar collapses behind a hamburger at 768 px or less. */
export const NARROW_SCREEN_QUERY = '(max-width: 768px)';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
