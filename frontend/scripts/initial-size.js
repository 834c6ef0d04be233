// Prints the size of what dist/index.html loads up front (scripts and styles): raw, gzipped (level 9) and
// as the server sends it to browsers that accept Brotli (the .br files of scripts/compress.js).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const dist = path.resolve(__dirname, '..', 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="?\/?([^"\s>]+\.(?:js|css))/g)].map((m) => m[1]);

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const brotliSize = (file, body) =>
  fs.existsSync(`${file}.br`)
    ? fs.statSync(`${file}.br`).size
    : zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

const totals = { js: [0, 0, 0], css: [0, 0, 0] };
const row = (label, [raw, gzip, br]) =>
  `${label.padEnd(40)} ${kib(raw).padStart(10)} ${kib(gzip).padStart(10)} gzip ${kib(br).padStart(10)} br`;
for (const asset of assets) {
  const file = path.join(dist, asset);
  const body = fs.readFileSync(file);
  const sizes = [body.length, zlib.gzipSync(body, { level: 9 }).length, brotliSize(file, body)];
  const kind = asset.endsWith('.css') ? 'css' : 'js';
  sizes.forEach((size, i) => (totals[kind][i] += size));
  console.log(row(asset, sizes));
}
for (const [kind, sizes] of Object.entries(totals)) console.log(row(`initial ${kind}`, sizes));
