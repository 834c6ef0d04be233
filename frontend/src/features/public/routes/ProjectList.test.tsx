import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { card } from '../testing/fixtures';
import { filtersOf } from './ProjectList';

/** Answers the list with `projects` and records every query the page asks for. */
function mockList(projects = [card({ id: 1, slug: 'maebashi-fes', title: '前橋の夏祭りを復活させたい' })], total = projects.length) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(apiUrl('/project/get/list'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      asked.push(params);
      return HttpResponse.json({ projects, total, page: Number(params.get('page') ?? 1), pageSize: 24 });
    }),
  );
  return asked;
}

describe('ProjectList', () => {
  it('reads its filters from the address and sends them to the server', async () => {
    const asked = mockList();
    renderApp('/projects/?area=maebashi&category=culture-arts&state=open&sort=ending&q=%E3%83%90%E3%83%A9');

    expect(await screen.findByRole('heading', { level: 1, name: /前橋市・文化・芸術の募集中のプロジェクト/ })).toBeInTheDocument();
    expect(screen.getByText('1件のプロジェクト')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'キーワード' })).toHaveValue('バラ');
    expect(screen.getByRole('combobox', { name: '並び順' })).toHaveValue('ending');
    expect(screen.getByRole('radio', { name: '募集中' })).toBeChecked();
    const last = asked.at(-1)!;
    expect(Object.fromEntries(last)).toEqual({ area: 'maebashi', category: 'culture-arts', state: 'open', sort: 'ending', q: 'バラ' });
  });

  it('puts a chosen filter and a searched keyword into the address, back on page 1', async () => {
    const asked = mockList();
    const user = userEvent.setup();
    renderApp('/projects/?page=2');
    await screen.findByText('1件のプロジェクト');

    await user.selectOptions(await screen.findByRole('combobox', { name: '地域' }), '高崎市');
    await waitFor(() => expect(asked.at(-1)?.get('area')).toBe('takasaki'));
    expect(asked.at(-1)?.get('page')).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'キーワード' }), 'ﾀﾞﾙﾏ');
    await user.click(screen.getByRole('button', { name: '検索' }));
    await waitFor(() => expect(asked.at(-1)?.get('q')).toBe('ﾀﾞﾙﾏ'));
    expect(asked.at(-1)?.get('area')).toBe('takasaki');
  });

  it('says so when nothing matches and offers the whole list', async () => {
    mockList([], 0);
    renderApp('/projects/?q=%E3%81%B6%E3%81%A9%E3%81%86');

    expect(await screen.findByText('条件に合うプロジェクトはありません。')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'すべてのプロジェクトを見る' })).toHaveAttribute('href', '/projects/');
  });

  it('shows the reason the server refused the address', async () => {
    server.use(
      http.get(apiUrl('/project/get/list'), () =>
        HttpResponse.json(
          { error: 'validation_failed', message: 'キーワードは100文字以内で入力してください。', field: 'q' },
          { status: 400 },
        ),
      ),
    );
    renderApp(`/projects/?q=${'あ'.repeat(101)}`);

    expect(await screen.findByRole('alert')).toHaveTextContent('キーワードは100文字以内で入力してください。');
  });

  it('pages through the results with links that keep the filters', async () => {
    mockList(Array.from({ length: 24 }, (_, i) => card({ id: i + 1, slug: `p${i + 1}`, title: `プロジェクト${i + 1}` })), 30);
    renderApp('/projects/?category=sports');

    const pager = await screen.findByRole('navigation', { name: 'ページ送り' });
    expect(within(pager).getByText('1 / 2ページ')).toBeInTheDocument();
    expect(within(pager).getByRole('link', { name: '次のページ' })).toHaveAttribute('href', '/projects/?category=sports&page=2');
  });

  it('drops address values the list does not offer', () => {
    expect(filtersOf(new URLSearchParams('sort=amount&state=closed&page=x&q=%20'))).toEqual({
      area: undefined, category: undefined, state: undefined, sort: undefined, q: undefined, page: undefined,
    });
  });
});
