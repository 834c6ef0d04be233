import { StrictMode, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { PageMetaProvider } from '@/hooks/pageMeta';
import type { AppStore } from './store';

/**
 * What every page needs around its router: the store it was given (the browser's seeded page store, or
 * a server's per-request one) and the page meta. The router goes inside, chosen by whoever renders.
 */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <StrictMode>
      <Provider store={store}>
        <PageMetaProvider>{children}</PageMetaProvider>
      </Provider>
    </StrictMode>
  );
}
