import { afterEach, describe, expect, it, vi } from 'vitest';

const listScripts = (...hrefs: string[]) => {
  for (const href of hrefs) {
    const link = document.createElement('link');
    link.rel = 'app-script';
    link.href = href;
    link.setAttribute('data-app-script', '');
    document.head.append(link);
  }
};

const scriptsAdded = () =>
  [...document.body.querySelectorAll('script')].map((script) => [new URL(script.src).pathname, script.async]);

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('boot', () => {
  it('runs the listed scripts in their order once the first contentful paint is reported', async () => {
    let report: ((list: { getEntriesByName: (name: string) => unknown[] }, observer: { disconnect: () => void }) => void) | undefined;
    const disconnect = vi.fn();
    class FakeObserver {
      static supportedEntryTypes = ['paint'];
      constructor(callback: typeof report) {
        report = callback;
      }
      observe() {}
    }
    vi.stubGlobal('PerformanceObserver', FakeObserver);
    listScripts('/assets/runtime.1.js', '/assets/vendor.2.js', '/assets/main.3.js');

    await import('./boot');
    expect(scriptsAdded()).toEqual([]);
    report!({ getEntriesByName: () => [] }, { disconnect });
    expect(scriptsAdded()).toEqual([]);
    report!({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) }, { disconnect });

    expect(scriptsAdded()).toEqual([
      ['/assets/runtime.1.js', false],
      ['/assets/vendor.2.js', false],
      ['/assets/main.3.js', false],
    ]);
    expect(disconnect).toHaveBeenCalled();
  });

  it('starts at once where the browser cannot report paints', async () => {
    vi.stubGlobal('PerformanceObserver', class {
      static supportedEntryTypes = ['mark'];
    });
    listScripts('/assets/main.3.js');

    await import('./boot');

    expect(scriptsAdded()).toEqual([['/assets/main.3.js', false]]);
  });
});
