import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { card, detail, logInAs, mockHome, mockProjectPage } from '@/features/public/testing/fixtures';
import { PREFETCHED_ELEMENT_ID } from '@/lib/prefetched';
import { renderApp } from '@/testing/render';
import { makePageStore } from './store';

/** The page as the server sends it: the first-screen answers in a JSON script element. */
const embedInPage = (payload: string) => {
  const script = document.createElement('script');
  script.id = PREFETCHED_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = payload;
  document.body.append(script);
};

const projects = [card({ id: 2, slug: 'takasaki-daruma', title: '高崎だるまの工房を守る' }), card({ id: 1 })];

describe('a freshly loaded page', () => {
  it('renders the home screen from the embedded answers, without asking the API', () => {
    // No handler for master or allSum: a request for them would fail the test.
    embedInPage(
      JSON.stringify({
        '/helper/get/master': { master: { projects, env: { name: 'local', flag: false } } },
        '/sales/get/allSum': { result: { amount: 4_321_000, lot: 77 } },
      }),
    );

    renderApp('/', { store: makePageStore() });

    const list = screen.getByRole('list', { name: 'プロジェクト' });
    expect(within(list).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      '高崎だるまの工房を守る',
      projects[1]!.title,
    ]);
    expect(screen.getByText('4,321,000円')).toBeInTheDocument();
    expect(screen.getByText('77人')).toBeInTheDocument();
    expect(document.getElementById(PREFETCHED_ELEMENT_ID)).toBeNull();
  });

  it('renders a project page from its embedded detail, at once', () => {
    mockProjectPage({ project: detail({ title: 'API から来たタイトル' }) });
    const embedded = { project: detail({ slug: 'maebashi-fes' }) };
    embedInPage(JSON.stringify({ '/project/get/detail?slug=maebashi-fes': embedded }));

    renderApp('/projects/maebashi-fes/', { store: makePageStore() });

    expect(screen.getByRole('heading', { level: 1, name: detail().title })).toBeInTheDocument();
  });

  it('asks the server when someone is logged in: the embedded detail is the anonymous view', async () => {
    logInAs(5);
    mockProjectPage({ project: detail({ title: 'ログイン中に見える内容' }) });
    embedInPage(JSON.stringify({ '/project/get/detail?slug=maebashi-fes': { project: detail() } }));

    renderApp('/projects/maebashi-fes/', { store: makePageStore() });

    expect(await screen.findByRole('heading', { level: 1, name: 'ログイン中に見える内容' })).toBeInTheDocument();
    expect(document.getElementById(PREFETCHED_ELEMENT_ID)).toBeNull();
  });

  it('fetches as usual when the embedded payload is damaged', async () => {
    mockProjectPage();
    embedInPage('{"/project/get/detail?slug=maebashi-fes": ');

    renderApp('/projects/maebashi-fes/', { store: makePageStore() });

    expect(await screen.findByRole('heading', { level: 1, name: detail().title })).toBeInTheDocument();
  });

  it('fetches what has the wrong shape and still uses the rest', async () => {
    mockHome(projects);
    embedInPage(
      JSON.stringify({
        '/helper/get/master': { unexpected: true },
        '/sales/get/allSum': { result: { amount: 9_000, lot: 2 } },
      }),
    );

    renderApp('/', { store: makePageStore() });

    expect(screen.getByText('9,000円')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'プロジェクト' });
    expect(within(list).getAllByRole('heading', { level: 3 })).toHaveLength(projects.length);
  });
});
