import { disposeTestContexts } from './context.js';

/** Mocha root hooks: every database a test run created is dropped when the run ends. */
export const mochaHooks = {
  async afterAll() {
    await disposeTestContexts();
  },
};
