// Mocha's spec reporter, plus the run's counts written to MOCHA_RESULTS_FILE for the test summary,
// with each file's wall time (its top-level suites, hooks included), slowest first.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failedTitles = [];
    const fileTimes = new Map();
    const started = new Map();
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, err) => {
      const reason = String(err?.message ?? err ?? '').split('\n')[0].slice(0, 300);
      failedTitles.push(reason ? `${test.fullTitle()} (${reason})` : test.fullTitle());
    });
    runner.on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent?.root && suite.file) started.set(suite, Date.now());
    });
    runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite) => {
      const start = started.get(suite);
      if (start === undefined) return;
      const file = path.relative(process.cwd(), suite.file);
      fileTimes.set(file, (fileTimes.get(file) ?? 0) + (Date.now() - start));
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.MOCHA_RESULTS_FILE;
      if (!file) return;
      const { passes, failures, pending, duration } = this.stats;
      const files = [...fileTimes].sort((a, b) => b[1] - a[1]).map(([name, ms]) => ({ file: name, ms }));
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending, failedTitles, durationMs: duration, files }));
    });
  }
}

module.exports = CountingSpecReporter;
