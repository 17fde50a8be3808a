import { cleanup, configure } from '@testing-library/react';
import { webcrypto } from 'node:crypto';
import { afterEach } from 'vitest';

/**
 * jsdom has no matchMedia, which antd and the shells' breakpoints read. This one answers width
 * queries against window.innerWidth (antd's use fractional pixels), so a test sets the width it
 * needs.
 */
export function stubMatchMedia(): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string): MediaQueryList => {
      const max = /max-width:\s*([\d.]+)px/.exec(query);
      const min = /min-width:\s*([\d.]+)px/.exec(query);
      const width = window.innerWidth;
      const matches = (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
      return {
        matches,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      };
    },
  });
}

/** Nor ResizeObserver, which antd's menus, avatars and pop-overs use; nothing is laid out in jsdom anyway. */
export function stubResizeObserver(): void {
  if ('ResizeObserver' in window) return;
  Object.defineProperty(window, 'ResizeObserver', {
    configurable: true,
    writable: true,
    value: class ResizeObserver {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  });
}

/**
 * A window of Vitest's vm pools has jsdom's `crypto`, without `subtle`, which the apps hash with
 * (the avatar address); browsers and Node.js have it: Node's Web Crypto stands in.
 */
export function stubSubtleCrypto(): void {
  if (globalThis.crypto?.subtle) return;
  Object.defineProperty(globalThis, 'crypto', { configurable: true, writable: true, value: webcrypto });
}

export interface SpaTestOptions {
  /** The window width (px) each test after the first starts from; the first has jsdom's 1024. */
  width: number;
}

/**
 * How long `findBy…` and `waitFor` wait for what a test expects. A first render of an antd page
 * under jsdom takes a second or more while the machine runs other suites beside it (CI runs four
 * at once), and ten or more on a machine whose two cores share one physical core (a lazily loaded
 * page is transformed on its first import); what never comes still fails the test, after this long.
 */
const ASYNC_WAIT_MS = 30_000;

/**
 * The test setup of an SPA: the browser APIs jsdom lacks, the wait for what a test expects
 * (ASYNC_WAIT_MS), and after each test Testing Library's
 * cleanup (Vitest globals are off, so it cannot register its own), an empty localStorage, the URL
 * back at '/' (the apps run a real BrowserRouter against jsdom's history) and the window width.
 */
export function setUpSpaTests({ width }: SpaTestOptions): void {
  configure({ asyncUtilTimeout: ASYNC_WAIT_MS });
  stubMatchMedia();
  stubResizeObserver();
  stubSubtleCrypto();
  afterEach(() => {
    cleanup();
    localStorage.clear();
    window.history.replaceState(null, '', '/');
    window.innerWidth = width;
  });
}
