import { useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './AppProviders';
import { AppRoutes } from './AppRoutes';
import { makePageStore } from './store';

export function App() {
  const [store] = useState(makePageStore);
  // Buttons of a server-rendered screen do nothing until the app has taken it over: say when it has
  // (browser tests wait for this before they act; see e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.appReady = '';
  }, []);
  return (
    <AppProviders store={store}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
