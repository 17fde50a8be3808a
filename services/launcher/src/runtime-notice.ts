// oidc-provider warns when it is first imported on any runtime older than Node.js 22 LTS. This
// product supports Node.js 20.19 and later (package.json `engines`) and runs its suites on both 20
// and 22, so on Node.js 20 that one line is dropped while the provider loads, and nothing else.
// Imported first by the launcher's entry point, which calls `endRuntimeNotice` once loaded.
const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime.';
const original = console.warn;

if ((process.release as NodeJS.ProcessRelease & { lts?: string }).lts === 'Iron') {
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes(UNSUPPORTED_RUNTIME)) return;
    original.apply(console, args);
  };
}

/** Puts console.warn back once the provider is loaded. */
export function endRuntimeNotice(): void {
  console.warn = original;
}
