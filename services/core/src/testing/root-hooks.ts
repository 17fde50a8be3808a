import type { Context } from 'mocha';
import { disposeTestContexts, disposeTestContextsBefore, testContextsMade } from './context.js';

/** The file of the last test that ended, and how many contexts the run had made when it did. */
let last: { file: string | undefined; made: number } | undefined;

/**
 * Mocha root hooks: the contexts a test file made are closed (their databases dropped) when the
 * next file's first test starts, since the file's own `after` hooks have run by then; those the next
 * file's `before` hooks made meanwhile stay. Every database the run created is dropped when it ends.
 */
export const mochaHooks = {
  async beforeEach(this: Context) {
    const file = this.currentTest?.file;
    if (last && last.file !== file) {
      const made = last.made;
      last = undefined;
      await disposeTestContextsBefore(made);
    }
  },
  afterEach(this: Context) {
    last = { file: this.currentTest?.file, made: testContextsMade() };
  },
  async afterAll() {
    await disposeTestContexts();
  },
};
