// Prints "tests: N passed, N failed" for the vitest and Playwright JSON reports given, and
// fails when a report is missing or no test ran at all (a run that tests nothing is a defect).
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
let missing = false;
// The failing tests' names, printed last so that a log cut to its tail still says what failed.
const failures = [];
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
    for (const suite of report.testResults ?? []) {
      for (const test of suite.assertionResults ?? []) {
        if (test.status === 'failed') failures.push({ where: suite.name, name: test.fullName, message: test.failureMessages?.[0] });
      }
      // A file that failed to load has no tests to name.
      if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) {
        failures.push({ where: suite.name, name: '(the file itself)', message: suite.message });
      }
    }
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    collectPlaywright(report.suites ?? [], []);
  }
}
for (const f of failures) {
  const first = String(f.message ?? '')
    .split('\n')
    .slice(0, 6)
    .join('\n    ');
  console.log(`FAILED ${relative(process.cwd(), f.where)} > ${f.name}${first ? `\n    ${first}` : ''}`);
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(missing || failed > 0 || passed === 0 ? 1 : 0);

function collectPlaywright(suites, titles) {
  for (const suite of suites) {
    const path = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push({ where: spec.file ?? suite.file ?? '', name: [...path.slice(1), spec.title].join(' > '), message: error });
      }
    }
    collectPlaywright(suite.suites ?? [], path);
  }
}
