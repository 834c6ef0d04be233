import type { components, operations } from './api/schema';

/**
 * The API's bodies as the server describes them (`GET /v1/openapi.json`, generated from its handlers). Features
 * name their response types from here instead of writing them by hand, so a server change that breaks a screen
 * fails the typecheck. Regenerate with `npm run generate:api` after the server's description changes.
 */
export type Schemas = components['schemas'];

/** The JSON body of `operation`'s answer with `status` (default 200). */
export type ApiResponse<
  Op extends keyof operations,
  Status extends keyof operations[Op]['responses'] = 200,
> = operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;

/** The query parameters `operation` takes. */
export type ApiQuery<Op extends keyof operations> = operations[Op]['parameters'] extends { query: infer Query } ? Query : never;
