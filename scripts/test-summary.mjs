// Prints "tests: N passed, N failed" for the vitest and Playwright JSON reports given, and
// fails when a report is missing or no test ran at all (a run that tests nothing is a defect).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
let missing = false;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`test-summary: ${file} is missing (that runner did not finish)`);
    missing = true;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(missing || failed > 0 || passed === 0 ? 1 : 0);
