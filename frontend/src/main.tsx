import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { readToken } from '@/lib/storage';
import '@/styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// `/` and project pages arrive with their first screen rendered by the server for a logged-out visitor
// (docs/architecture.md, "First paint"): the app takes that markup over. A logged-in visitor's screen
// differs (header, restricted returns), so it is rendered afresh, as every other page is.
const hydrate = container.hasChildNodes() && !readToken();

// Start-up in short tasks so a slow phone stays responsive: React is evaluated first, the application
// (router, store, pages) in a task of its own, and the first render, as a transition, yields to the
// browser every few milliseconds instead of holding the main thread for the whole tree.
setTimeout(() => {
  void import(/* webpackMode: "eager" */ '@/app/App').then(({ App }) => {
    startTransition(() => {
      if (hydrate) hydrateRoot(container, <App />);
      else createRoot(container).render(<App />);
    });
  });
}, 0);
