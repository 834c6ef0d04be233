import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { seedFirstScreen } from '@/features/public/api/publicApi';
import { api } from '@/lib/api';
import { takeEmbeddedResponses } from '@/lib/prefetched';
import { readToken } from '@/lib/storage';
import { sessionSlice } from '@/app/session/sessionSlice';

/**
 * State that a lazily loaded feature adds when its chunk arrives (`slice.injectInto(rootReducer)`); the
 * feature declares its part by merging into this interface, so the first download carries none of it.
 */
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(api, sessionSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

/** Builds a store; tests build a fresh one each. */
export const makeStore = (preloadedState?: Partial<RootState>) => {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
};

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

/**
 * The store of a freshly loaded page: filled with the first-screen answers the server embedded in it
 * (docs/architecture.md, "First paint"). Those are what a logged-out visitor gets, so a logged-in one
 * fetches instead (a project's returns may be restricted to their address).
 */
export const makePageStore = (): AppStore => {
  const store = makeStore();
  const embedded = takeEmbeddedResponses();
  if (!readToken()) seedFirstScreen(store.dispatch, embedded);
  return store;
};
