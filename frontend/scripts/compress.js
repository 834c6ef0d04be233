// Writes a Brotli (.br) and a gzip (.gz) copy, at maximum compression, beside every script, style and
// SVG in dist/assets. The server sends them as they are to browsers that accept them (app-server/src/assets.rs).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const assets = path.resolve(__dirname, '..', 'dist', 'assets');
const COMPRESSIBLE = /\.(?:js|css|svg)$/;

let files = 0;
let raw = 0;
let brotli = 0;
for (const name of fs.readdirSync(assets, { recursive: true })) {
  const file = path.join(assets, String(name));
  if (!COMPRESSIBLE.test(file) || !fs.statSync(file).isFile()) continue;
  const body = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION }));
  files += 1;
  raw += body.length;
  brotli += br.length;
}
console.log(`compress: ${files} files, ${(raw / 1024).toFixed(1)} KiB -> ${(brotli / 1024).toFixed(1)} KiB brotli`);
