import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router-dom';
import { routes } from '@/app/routes';
import { makeStore } from '@/app/store';
import { provideSiteConfigBlock } from '@/config/site';
import { seedFirstScreen } from '@/features/public/api/publicApi';
import { PageMetaProvider } from '@/hooks/pageMeta';

const handler = createStaticHandler(routes);

/**
 * The markup of the app's root element at `path`, as a logged-out visitor's browser renders it first:
 * the same routes and providers as `App`, with the store seeded from the same embedded answers
 * (`makePageStore`), so hydration finds exactly this tree.
 */
export async function renderFirstScreen(path: string, responses: Record<string, unknown>, site: unknown): Promise<string> {
  provideSiteConfigBlock(site);
  const store = makeStore();
  seedFirstScreen(store.dispatch, new Map(Object.entries(responses)));
  const context = await handler.query(new Request(new URL(path, 'http://first-screen.invalid')));
  if (context instanceof Response) throw new Error(`${path} answers ${context.status}, not a page`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <Provider store={store}>
        <PageMetaProvider>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </PageMetaProvider>
      </Provider>
    </StrictMode>,
  );
}
