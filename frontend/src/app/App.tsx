import { StrictMode, useState } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { PageMetaProvider } from '@/hooks/pageMeta';
import { createAppRouter } from './router';
import { makePageStore } from './store';

export function App() {
  const [store] = useState(makePageStore);
  const [router] = useState(createAppRouter);
  return (
    <StrictMode>
      <Provider store={store}>
        <PageMetaProvider>
          <RouterProvider router={router} />
        </PageMetaProvider>
      </Provider>
    </StrictMode>
  );
}
