import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { apiUrl, server } from '@/testing/server';
import { api } from './api';
import { PREFETCHED_ELEMENT_ID, requestKey } from './prefetched';
import { JWT_STORAGE_KEY } from './storage';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ ok: boolean }, void>({ query: () => '/probe' }),
  }),
});

/** The page's embedded payload, as the server writes it (JSON text). */
const embedInPage = (payload: string) => {
  const script = document.createElement('script');
  script.id = PREFETCHED_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = payload;
  document.body.append(script);
};

const countServerCalls = (body: { ok: boolean; embedded?: boolean }) => {
  const calls = { count: 0 };
  server.use(
    http.get(apiUrl('/probe'), () => {
      calls.count += 1;
      return HttpResponse.json(body);
    }),
  );
  return calls;
};

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

  it('answers the first request from the response embedded in the page, later ones from the server', async () => {
    embedInPage(JSON.stringify({ '/probe': { ok: true, embedded: true } }));
    const calls = countServerCalls({ ok: true, embedded: false });
    const store = makeStore();

    const first = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(first.data).toEqual({ ok: true, embedded: true });
    expect(calls.count).toBe(0);
    expect(document.getElementById(PREFETCHED_ELEMENT_ID)).toBeNull();

    const again = await store.dispatch(probeApi.endpoints.probe.initiate(undefined, { forceRefetch: true }));
    expect(again.data).toEqual({ ok: true, embedded: false });
    expect(calls.count).toBe(1);
  });

  it('asks the server for a logged-in visitor: the embedded responses are the anonymous view', async () => {
    window.localStorage.setItem(JWT_STORAGE_KEY, JSON.stringify({ type: 'Bearer', token: 'abc.def.ghi' }));
    embedInPage(JSON.stringify({ '/probe': { ok: true, embedded: true } }));
    const calls = countServerCalls({ ok: true, embedded: false });

    const result = await makeStore().dispatch(probeApi.endpoints.probe.initiate());

    expect(result.data).toEqual({ ok: true, embedded: false });
    expect(calls.count).toBe(1);
  });

  it('falls back to the server when the embedded payload is damaged', async () => {
    embedInPage('{"/probe": ');
    const calls = countServerCalls({ ok: true });

    const result = await makeStore().dispatch(probeApi.endpoints.probe.initiate());

    expect(result.data).toEqual({ ok: true });
    expect(calls.count).toBe(1);
  });
});

describe('requestKey', () => {
  it('is the path plus the query string the server keys embedded responses by', () => {
    expect(requestKey('/helper/get/master')).toBe('/helper/get/master');
    expect(requestKey({ url: '/project/get/detail', params: { slug: 'maebashi-rose-garden' } })).toBe(
      '/project/get/detail?slug=maebashi-rose-garden',
    );
    expect(requestKey({ url: '/sales/get/sum', params: { type: 'project', id: 3, skip: undefined } })).toBe(
      '/sales/get/sum?type=project&id=3',
    );
  });

  it('is null for anything but a GET', () => {
    expect(requestKey({ url: '/comment/set/update', method: 'POST', body: {} })).toBeNull();
  });
});
