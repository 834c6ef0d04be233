import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppProviders } from '@/app/AppProviders';
import { AppRoutes } from '@/app/AppRoutes';
import { makeStore } from '@/app/store';
import { provideSiteConfigBlock } from '@/config/site';
import { seedFirstScreen } from '@/features/public/api/publicApi';

/**
 * The markup of the app's root element at `path`, as a logged-out visitor's browser renders it first:
 * the same providers and routes as `App`, with the store seeded from the same embedded answers
 * (`makePageStore`), so hydration finds exactly this tree.
 */
export function renderFirstScreen(path: string, responses: Record<string, unknown>, site: unknown): string {
  provideSiteConfigBlock(site);
  const store = makeStore();
  seedFirstScreen(store.dispatch, new Map(Object.entries(responses)));
  return renderToString(
    <AppProviders store={store}>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </AppProviders>,
  );
}
