// `node --test scripts/api-shapes.test.mjs` (part of `npm test`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { apiFiles, handWrittenShapes } from './api-shapes.mjs';

const names = (text) => handWrittenShapes('x.ts', text).map(({ name }) => name);

test('an interface is a hand-written shape', () => {
  const text = `import type { Schemas } from '@/lib/apiTypes';

export type Card = Schemas['CardDto'];

export interface Quote {
  price: number;
  total: number;
}
`;
  assert.deepEqual(handWrittenShapes('types.ts', text), [{ name: 'Quote', line: 5 }]);
});

test('an object literal in a type alias is one, alone, in a union or added to a generated type', () => {
  assert.deepEqual(
    names(`
      type A = { id: number };
      type B = { cardId: string } | { token: string };
      type C = Schemas['ReturnDto'] & { addressLabel: string | null };
      type D = Array<{ id: number }>;
    `),
    ['A', 'B', 'C', 'D'],
  );
});

test('types derived from the description pass, and so do unions of literals', () => {
  assert.deepEqual(
    names(`
      type A = Schemas['CardDto'];
      type B = ApiResponse<'login_check'>;
      type C = Omit<Schemas['AddressDto'], 'id'>;
      type D = Pick<Schemas['CommentListResponse'], 'comments'> & Pick<Schemas['PaginationDto'], 'page'>;
      type E = 'icon' | 'logo';
      const shape = { id: 1 };
    `),
    [],
  );
});

test('looks at every api/ folder of a feature, tests aside', () => {
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 'api-shapes-'));
  const write = (file) => {
    fs.mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    fs.writeFileSync(path.join(src, file), '');
  };
  ['features/a/api/aApi.ts', 'features/b/api/nested/types.ts', 'features/a/api/aApi.test.tsx', 'features/a/components/Form.tsx']
    .forEach(write);

  const found = apiFiles(src).map((file) => path.relative(src, file).split(path.sep).join('/')).sort();

  assert.deepEqual(found, ['features/a/api/aApi.ts', 'features/b/api/nested/types.ts']);
  fs.rmSync(src, { recursive: true });
});
