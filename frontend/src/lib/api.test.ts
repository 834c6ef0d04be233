import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { apiUrl, server } from '@/testing/server';
import { api } from './api';
import { JWT_STORAGE_KEY } from './storage';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ ok: boolean }, void>({ query: () => '/probe' }),
  }),
});

const captureAuthorization = () => {
  const seen: Array<string | null> = [];
  server.use(
    http.get(apiUrl('/probe'), ({ request }) => {
      seen.push(request.headers.get('Authorization'));
      return HttpResponse.json({ ok: true });
    }),
  );
  return seen;
};

describe('api', () => {
  it('sends the stored token as a bearer token to /v1', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'abc.def.ghi' }));
    const seen = captureAuthorization();

    const result = await makeStore().dispatch(probeApi.endpoints.probe.initiate());

    expect(result.data).toEqual({ ok: true });
    expect(seen).toEqual(['Bearer abc.def.ghi']);
  });

  it('sends no authorization header without a stored token', async () => {
    const seen = captureAuthorization();

    await makeStore().dispatch(probeApi.endpoints.probe.initiate());

    expect(seen).toEqual([null]);
  });

  it('ignores a stored token that is not the expected JSON', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, 'not json');
    const seen = captureAuthorization();

    await makeStore().dispatch(probeApi.endpoints.probe.initiate());

    expect(seen).toEqual([null]);
  });
});
