import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '@/app/App';
import { provideSiteConfigBlock } from '@/config/site';
import { card, detail, mockHome, mockProjectPage } from '@/features/public/testing/fixtures';
import { PREFETCHED_ELEMENT_ID } from '@/lib/prefetched';
import { renderFirstScreen } from './firstScreen';

// Hydration is driven with React's act(): tell React this is a test environment.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const site = { operator: { name: '上州新報株式会社' }, publicUrl: 'https://cf.example/' };
const projects = [card({ id: 2, slug: 'takasaki-daruma', title: '高崎だるまの工房を守る' }), card({ id: 1 })];
const homeAnswers = {
  '/helper/get/master': { master: { projects, env: { name: 'local', flag: false } } },
  '/sales/get/allSum': { result: { amount: 4_321_000, lot: 77 } },
};
const project = detail({
  slug: 'maebashi-fes',
  title: '前橋の夏祭りを復活させたい',
  slider: [
    { src: '/media/demo/p1-main.svg', alt: '' },
    { src: '/media/demo/p1-sub.svg', alt: '' },
  ],
});
const projectAnswers = { '/project/get/detail?slug=maebashi-fes': { project } };

/** The page as app-server sends it: the rendered first screen, and the answers it was rendered from. */
const servePage = (path: string, html: string, answers: object) => {
  window.history.replaceState(null, '', path);
  document.body.innerHTML = `<div id="root">${html}</div>`;
  const script = document.createElement('script');
  script.id = PREFETCHED_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = JSON.stringify(answers);
  document.body.append(script);
  const element = document.getElementById('root');
  if (!element) throw new Error('no root');
  return element;
};

/** Roots hydrated by the test: unmounted after it, so no timer or request of the app outlives the page
 * (one that fired after the file's jsdom was torn down failed the run with "window is not defined"). */
const hydrated: Root[] = [];

/** Hydrates `container` as main.tsx does; answers the errors React recovered from (mismatches). */
const hydrate = async (container: HTMLElement) => {
  const recovered = vi.fn();
  await act(async () => {
    hydrated.push(hydrateRoot(container, <App />, { onRecoverableError: recovered }));
  });
  return recovered;
};

afterEach(() => {
  for (const root of hydrated.splice(0)) act(() => root.unmount());
  provideSiteConfigBlock(undefined);
  window.history.replaceState(null, '', '/');
});

describe('the server-rendered first screen', () => {
  it('is the finished home screen: the projects in order, the totals and the operator', async () => {
    const html = renderFirstScreen('/', homeAnswers, site);

    expect(html.indexOf('高崎だるまの工房を守る')).toBeGreaterThan(-1);
    expect(html.indexOf('高崎だるまの工房を守る')).toBeLessThan(html.indexOf(projects[1]!.title));
    expect(html).toContain('4,321,000円');
    expect(html).toContain('77人');
    expect(html).toContain('上州新報株式会社');
    expect(html).toContain('ログイン');
  });

  it('is the project page with its share links on the public address', async () => {
    const html = renderFirstScreen('/projects/maebashi-fes/', projectAnswers, site);

    expect(html).toContain(project.title);
    expect(html).toContain(encodeURIComponent('https://cf.example/projects/maebashi-fes/'));
  });

  it('carries no style attribute, which the pages\' Content-Security-Policy would refuse', () => {
    for (const html of [renderFirstScreen('/', homeAnswers, site), renderFirstScreen('/projects/maebashi-fes/', projectAnswers, site)]) {
      expect(html).toContain('<img');
      expect(html).not.toMatch(/\sstyle=/);
    }
  });

  it('is taken over by the browser without re-rendering: home', async () => {
    mockHome(projects);
    const html = renderFirstScreen('/', homeAnswers, site);
    provideSiteConfigBlock(site);
    const root = servePage('/', html, homeAnswers);
    const heading = root.querySelector('h3');

    const recovered = await hydrate(root);

    expect(recovered).not.toHaveBeenCalled();
    expect(heading?.isConnected).toBe(true);
    expect(heading?.textContent).toBe('高崎だるまの工房を守る');
  });

  it('is taken over by the browser without re-rendering: a project page', async () => {
    mockProjectPage({ project });
    const html = renderFirstScreen('/projects/maebashi-fes/', projectAnswers, site);
    provideSiteConfigBlock(site);
    const root = servePage('/projects/maebashi-fes/', html, projectAnswers);
    const heading = root.querySelector('h1');

    const recovered = await hydrate(root);

    expect(recovered).not.toHaveBeenCalled();
    expect(heading?.isConnected).toBe(true);
    expect(heading?.textContent).toBe(project.title);
  });
});
