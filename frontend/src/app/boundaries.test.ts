import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// Features stay independent so each can be loaded, changed or removed alone (the public pages must not
// pull account or admin code into the first download). What two features need lives in `app` (session,
// store), `components`, `hooks` or `lib`; only `app` (the router) and `testing` may name features.

// `import.meta.url` is not a file URL under jsdom; vitest defines `__dirname`.
const SRC = resolve(__dirname, '..');
const FEATURES = join(SRC, 'features');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });

const SPECIFIERS = [
  /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)?['"]([^'"]+)['"]/g,
  /\bimport\s+['"]([^'"]+)['"]/g,
];

/** Every module a source names in `import`, `export ... from` or `import()`. */
const importsOf = (source: string): string[] =>
  SPECIFIERS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));

/** The feature a specifier written in `file` points into, or `null` outside `src/features`. */
const featureOf = (file: string, specifier: string): string | null => {
  let target: string;
  if (specifier.startsWith('@/')) target = join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) target = resolve(dirname(file), specifier);
  else return null;
  const inside = relative(FEATURES, target);
  if (inside === '' || inside.startsWith('..')) return null;
  return inside.split(sep)[0] ?? null;
};

/** `file: specifier` for each import of `files` that reaches a feature `allowed` does not accept. */
const offending = (files: string[], allowed: (file: string, feature: string) => boolean): string[] =>
  files.flatMap((file) =>
    importsOf(readFileSync(file, 'utf8'))
      .filter((specifier) => {
        const feature = featureOf(file, specifier);
        return feature !== null && !allowed(file, feature);
      })
      .map((specifier) => `${relative(SRC, file)}: ${specifier}`),
  );

describe('module boundaries', () => {
  it('finds static, re-exported, dynamic and side-effect imports', () => {
    const source = [
      "import { a } from '@/features/auth/x';",
      "import type {\n  B,\n} from '../../account/api/accountApi';",
      "export { c } from './c';",
      "const page = () => import(/* webpackChunkName: \"admin\" */ '@/features/admin/routes');",
      "import './styles.css';",
    ].join('\n');

    expect(importsOf(source).sort()).toEqual(
      ['../../account/api/accountApi', './c', './styles.css', '@/features/admin/routes', '@/features/auth/x'].sort(),
    );
  });

  it('keeps every feature from importing another feature', () => {
    const features = readdirSync(FEATURES);
    const violations = features.flatMap((name) =>
      offending(sourceFiles(join(FEATURES, name)), (_, feature) => feature === name),
    );

    expect(violations).toEqual([]);
  });

  it('keeps shared code (components, hooks, lib, config) free of features', () => {
    const shared = ['components', 'hooks', 'lib', 'config'].flatMap((dir) => sourceFiles(join(SRC, dir)));

    expect(offending(shared, () => false)).toEqual([]);
  });
});
