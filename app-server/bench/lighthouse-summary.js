// Summarises Lighthouse reports of one page: the median run by performance score, with its metrics,
// and the spread of the scores over all runs. Usage: node lighthouse-summary.js <page> <report.json>...
const [page, ...reports] = process.argv.slice(2);
const runs = reports
  .map((file) => require(require('node:path').resolve(file)))
  .filter((report) => report.categories?.performance?.score != null)
  .map((report) => ({
    performance: Math.round(report.categories.performance.score * 100),
    accessibility: Math.round(report.categories.accessibility.score * 100),
    metric: (id) => report.audits[id].displayValue,
  }))
  .sort((a, b) => a.performance - b.performance);
if (runs.length === 0) {
  console.log(`${page}: lighthouse failed`);
  process.exit(0);
}
const median = runs[Math.floor(runs.length / 2)];
const scores = runs.map((run) => run.performance).join('/');
console.log(
  `${page.padEnd(36)} performance ${median.performance} (runs ${scores})  accessibility ${median.accessibility}  ` +
    `FCP ${median.metric('first-contentful-paint')}  LCP ${median.metric('largest-contentful-paint')}  ` +
    `TBT ${median.metric('total-blocking-time')}  CLS ${median.metric('cumulative-layout-shift')}`,
);
