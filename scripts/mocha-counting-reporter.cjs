// Mocha's spec reporter, plus the run's counts written to MOCHA_RESULTS_FILE for the test summary.
const fs = require('node:fs');
const Mocha = require('mocha');

class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failedTitles = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, err) => {
      const reason = String(err?.message ?? err ?? '').split('\n')[0].slice(0, 300);
      failedTitles.push(reason ? `${test.fullTitle()} (${reason})` : test.fullTitle());
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.MOCHA_RESULTS_FILE;
      if (!file) return;
      const { passes, failures, pending } = this.stats;
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending, failedTitles }));
    });
  }
}

module.exports = CountingSpecReporter;
