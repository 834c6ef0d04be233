/**
 * The server renderer (docs/architecture.md, "First paint"): app-server runs this bundle
 * (`dist-server/render.js`) as one Node process and asks it for the first screen of `/` and
 * `/projects/{slug}/`, one JSON line per page on stdin, one JSON line back on stdout:
 *   in:  {"path": "/projects/x/", "responses": {"<path?query>": <body>}, "site": {"operator": {...}}}
 *   out: {"html": "<div class=app>..."} or {"error": "..."}; the first line out is {"ready": true}.
 * It renders the same tree the browser hydrates, from the same embedded answers, as a logged-out visitor.
 */
import { createInterface } from 'node:readline';
import { renderFirstScreen } from './firstScreen';

// stdout carries the answers only: anything else the app or React logs goes to stderr.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

const answer = (reply: object) => process.stdout.write(`${JSON.stringify(reply)}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  try {
    const request = JSON.parse(line) as { path: string; responses: Record<string, unknown>; site: unknown };
    answer({ html: renderFirstScreen(request.path, request.responses, request.site) });
  } catch (error) {
    answer({ error: error instanceof Error ? error.message : String(error) });
  }
});
lines.on('close', () => process.exit(0));
answer({ ready: true });
