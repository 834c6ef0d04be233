import { act, render, type RenderOptions } from '@testing-library/react';
import { useLayoutEffect, type ReactElement, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction, type To } from 'react-router-dom';
import { AppRoutes } from '@/app/AppRoutes';
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

/** What a test reads and drives of the application's memory router. */
export interface TestRouter {
  /** Where the reader is now. */
  readonly location: Location;
  /** Goes to `to` as a link would. */
  navigate: (to: To) => Promise<void>;
}

interface RouterProbeTarget {
  location?: Location;
  navigate?: NavigateFunction;
}

/** Hands the router's location and navigation to the test after every commit. */
function RouterProbe({ target }: { target: RouterProbeTarget }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    target.location = location;
    target.navigate = navigate;
  });
  return null;
}

/** Renders the whole application at `path`, with a fresh store. */
export function renderApp(
  path: string,
  { preloadedState, store = makeStore(preloadedState) }: Pick<ProviderOptions, 'preloadedState' | 'store'> = {},
) {
  const probe: RouterProbeTarget = {};
  const router: TestRouter = {
    get location() {
      if (!probe.location) throw new Error('the application has not rendered yet');
      return probe.location;
    },
    navigate: async (to) => {
      const navigate = probe.navigate;
      if (!navigate) throw new Error('the application has not rendered yet');
      await act(async () => {
        await navigate(to);
      });
    },
  };
  return {
    store,
    router,
    ...render(
      <Provider store={store}>
        <PageMetaProvider>
          <MemoryRouter initialEntries={[path]}>
            <AppRoutes />
            <RouterProbe target={probe} />
          </MemoryRouter>
        </PageMetaProvider>
      </Provider>,
    ),
  };
}
