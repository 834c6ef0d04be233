// Prints what failed in a Vitest run, read from its JSON report: each failed test's file and name and the first
// lines of its error. `make test` prints it after the summary, so the end of a CI log says why.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [reportPath] = process.argv.slice(2);
const MAX_LINES = 12;
// eslint-disable-next-line no-control-regex
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (error) {
  console.log(`no unit-test report at ${reportPath} (the typecheck may have failed first): ${error.message}`);
  process.exit(0);
}

let failures = 0;
for (const file of report.testResults ?? []) {
  const name = relative(process.cwd(), file.name);
  if (file.status === 'failed' && (file.assertionResults ?? []).every((test) => test.status !== 'failed')) {
    failures += 1;
    console.log(`✘ ${name}: ${plain(file.message ?? 'the file failed to run').split('\n').slice(0, MAX_LINES).join('\n    ')}`);
  }
  for (const test of file.assertionResults ?? []) {
    if (test.status !== 'failed') continue;
    failures += 1;
    console.log(`✘ ${name} › ${test.fullName}`);
    const lines = plain((test.failureMessages ?? []).join('\n')).split('\n').slice(0, MAX_LINES);
    for (const line of lines) console.log(`    ${line}`);
  }
}
if (failures === 0) console.log('no failed unit test in the report');
