/**
 * One test file's start, when a worker runs several files in one window (Vitest's `vmThreads`
 * pool: one jsdom and one module cache per worker, which spares each file the cost of a new window
 * and of evaluating antd and React again).
 *
 * What a file could leave behind for the next is put back here, from the first line of the setup
 * file: the modules of the product (its own and the workspaces', re-evaluated so that module state
 * and `vi.mock` of one file never reach another; the libraries under node_modules stay evaluated),
 * the document (head and body), both storages, cookies, the URL and the title. Libraries keep
 * their own caches, which hold nothing of a test's: antd's style cache writes its `<style>` element
 * again whenever a component that needs it mounts into a document that lacks it.
 */
interface ModuleNode {
  promise?: unknown;
  exports?: unknown;
  evaluated: boolean;
  importers: Set<string>;
}

interface WorkerState {
  config?: { isolate?: boolean };
  evaluatedModules?: { idToModuleMap: Map<string, ModuleNode> };
}

const LIBRARY = /[\\/]node_modules[\\/]|[\\/]vitest[\\/]dist[\\/]|^\/@vite\//;

export function startTestFileAfresh(): void {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
  // A pool that gives each file its own window and modules leaves nothing to put back.
  if (!state || state.config?.isolate !== false) return;
  const modules = state.evaluatedModules?.idToModuleMap;
  if (!modules) throw new Error('Vitest no longer exposes its module cache: the per-file reset cannot run');
  for (const [id, node] of modules) {
    if (LIBRARY.test(id)) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
    node.importers.clear();
  }
  document.head.replaceChildren();
  document.body.replaceChildren();
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
  document.title = '';
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  window.history.replaceState(null, '', '/');
}
