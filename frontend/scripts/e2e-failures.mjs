// Prints what failed in a browser run, read from Playwright's JSON report: each failed test's title, where it
// failed and the first lines of its error. `make test` prints it last, so the end of a CI log says why.
import { readFileSync } from 'node:fs';

const [reportPath] = process.argv.slice(2);
const MAX_LINES = 25;
// eslint-disable-next-line no-control-regex
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (error) {
  console.log(`no browser report at ${reportPath}: ${error.message}`);
  process.exit(0);
}

const failed = [];
const walk = (suite, titles) => {
  const path = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      for (const result of test.results ?? []) {
        if (result.status === 'passed' || result.status === 'skipped') continue;
        failed.push({ title: [...path, spec.title].join(' › '), file: `${spec.file}:${spec.line}`, result });
      }
    }
  }
  for (const child of suite.suites ?? []) walk(child, path);
};
for (const suite of report.suites ?? []) walk(suite, []);

for (const { title, file, result } of failed) {
  console.log(`✘ ${file} › ${title} (${result.status}, ${result.duration} ms)`);
  for (const error of result.errors ?? []) {
    const lines = plain(error.message ?? String(error.value ?? '')).split('\n').slice(0, MAX_LINES);
    for (const line of lines) console.log(`    ${line}`);
  }
}
if (failed.length === 0) console.log('no failed browser test in the report');
