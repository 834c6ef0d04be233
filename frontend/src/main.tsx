import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import '@/styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// As a transition the first render yields to the browser every few milliseconds instead of holding the
// main thread for the whole tree, so a slow phone stays responsive while the page builds.
startTransition(() => {
  createRoot(container).render(<App />);
});
