// Prints the size of what dist/index.html loads up front (scripts and styles), raw and gzipped.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const dist = path.resolve(__dirname, '..', 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="?\/?([^"\s>]+\.(?:js|css))/g)].map((m) => m[1]);

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const totals = { js: [0, 0], css: [0, 0] };
for (const asset of assets) {
  const body = fs.readFileSync(path.join(dist, asset));
  const gzip = zlib.gzipSync(body, { level: 9 }).length;
  const kind = asset.endsWith('.css') ? 'css' : 'js';
  totals[kind][0] += body.length;
  totals[kind][1] += gzip;
  console.log(`${asset.padEnd(40)} ${kib(body.length).padStart(10)} ${kib(gzip).padStart(10)} gzip`);
}
for (const [kind, [raw, gzip]] of Object.entries(totals)) {
  console.log(`initial ${kind.padEnd(32)} ${kib(raw).padStart(10)} ${kib(gzip).padStart(10)} gzip`);
}
