import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, RouterProvider, createMemoryRouter } from 'react-router-dom';
import { routes } from '@/app/routes';
import { makeStore, type AppStore, type RootState } from '@/app/store';
import { PageMetaProvider } from '@/hooks/pageMeta';

interface ProviderOptions extends Omit<RenderOptions, 'wrapper'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** Initial location of the memory router. */
  route?: string;
}

/** Renders one component with a fresh store and a memory router. */
export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, store = makeStore(preloadedState), route = '/', ...renderOptions }: ProviderOptions = {},
) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>
      <PageMetaProvider>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </PageMetaProvider>
    </Provider>
  );
  return { store, ...render(ui, { wrapper: Wrapper, ...renderOptions }) };
}

/** Renders the whole application at `path`, with a fresh store. */
export function renderApp(
  path: string,
  { preloadedState, store = makeStore(preloadedState) }: Pick<ProviderOptions, 'preloadedState' | 'store'> = {},
) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return {
    store,
    router,
    ...render(
      <Provider store={store}>
        <PageMetaProvider>
          <RouterProvider router={router} />
        </PageMetaProvider>
      </Provider>,
    ),
  };
}
