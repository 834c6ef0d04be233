import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import '@/styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Start-up in short tasks so a slow phone stays responsive: React is evaluated first, the application
// (router, store, pages) in a task of its own, and the first render, as a transition, yields to the
// browser every few milliseconds instead of holding the main thread for the whole tree.
setTimeout(() => {
  void import(/* webpackMode: "eager" */ '@/app/App').then(({ App }) => {
    startTransition(() => {
      createRoot(container).render(<App />);
    });
  });
}, 0);
