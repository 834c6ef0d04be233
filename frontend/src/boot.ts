/**
 * The only script the page runs at first (docs/architecture.md, "First paint"). The page arrives with its
 * first screen rendered by the server and names its application scripts in
 * `<link rel="app-script" data-app-script href=...>` tags the browser does not fetch by itself. This
 * script asks for them once the first screen has been painted, so they never compete with it for a slow
 * phone's bandwidth or processor; they then run in document order, as deferred scripts would.
 */
let started = false;
const startApp = (): void => {
  if (started) return;
  started = true;
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[data-app-script]')) {
    const script = document.createElement('script');
    script.src = link.href;
    script.async = false;
    document.body.append(script);
  }
};

const paintIsReported =
  'PerformanceObserver' in window && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');

if (!paintIsReported || document.visibilityState === 'hidden') {
  // No way to know when it paints, or a page opened in the background that does not paint: start now.
  startApp();
} else {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    startApp();
  }).observe({ type: 'paint', buffered: true });
  // A page that has nothing to paint yet (a screen the server did not render) starts on its own.
  window.addEventListener('load', () => setTimeout(startApp, 500), { once: true });
}

// A module, so its names stay its own.
export {};
