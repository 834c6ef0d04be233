// Fails when a file under src/features/*/api/ writes a body's shape by hand: an `interface`, or a type alias with
// an object literal in it (`type X = { ... }`, `Schemas['X'] & { extra: string }`). The API's shapes come from the
// server's own description instead (`Schemas['XxxDto']`, `ApiResponse<'operation'>`, `Pick`/`Omit` of them where
// the client narrows), so a server change shows in the typecheck; a hand-written copy would go stale silently.
// Types of the client's own (UI state, form values) live outside `api/`. Run by `npm run typecheck`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const containsObjectLiteral = (node) => ts.isTypeLiteralNode(node) || (ts.forEachChild(node, containsObjectLiteral) ?? false);

/** The hand-written shapes `text` declares: `{ name, line }` for each. */
export function handWrittenShapes(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isInterfaceDeclaration(node) || (ts.isTypeAliasDeclaration(node) && containsObjectLiteral(node.type))) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ name: node.name.text, line });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every `.ts`/`.tsx` file (tests aside) under `src/features/<feature>/api/`. */
export function apiFiles(srcDir) {
  const featuresDir = path.join(srcDir, 'features');
  return fs
    .readdirSync(featuresDir, { recursive: true })
    .map((relative) => path.join(featuresDir, relative))
    .filter((file) => path.relative(featuresDir, file).split(path.sep)[1] === 'api')
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const problems = apiFiles(srcDir).flatMap((file) =>
    handWrittenShapes(file, fs.readFileSync(file, 'utf8')).map(
      ({ name, line }) => `${path.relative(process.cwd(), file)}:${line}: ${name}`,
    ),
  );
  if (problems.length > 0) {
    console.error(
      'Hand-written API shapes under src/features/*/api/: derive them from `Schemas` / `ApiResponse` ' +
        '(src/lib/apiTypes.ts), or move a type of the client\'s own out of api/.\n' +
        problems.map((problem) => `  ${problem}`).join('\n'),
    );
    process.exit(1);
  }
}
