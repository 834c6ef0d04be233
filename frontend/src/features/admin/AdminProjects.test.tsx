import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { AdminProjectSummary } from './projects/types';
import { summary } from './testing/projects';

const SITE = 'ぐんまクラウドファンディング';

/** Answers the list, by the `state` asked for; returns the `state` of every request. */
const serveList = (projects: AdminProjectSummary[]): (string | null)[] => {
  const asked: (string | null)[] = [];
  server.use(
    http.get(apiUrl('/admin/projects'), ({ request }) => {
      const state = new URL(request.url).searchParams.get('state');
      asked.push(state);
      return HttpResponse.json({ projects: state ? projects.filter((p) => p.state === state) : projects });
    }),
  );
  return asked;
};

const PROJECTS = [
  summary({
    id: 3,
    title: '沼田りんごの新しい加工場',
    state: 'draft',
    publishAt: null,
    periodEnd: '2027-02-28',
    goal: 3_000_000,
    raised: 0,
    backers: 0,
    returns: 0,
    attention: ['リターンがありません'],
  }),
  summary({ id: 2, title: '草津の湯畑に灯りを', state: 'scheduled', publishAt: '2026-12-05T09:00:00+09:00' }),
  summary({ id: 1, attention: ['終了まであと3日'] }),
];

describe('the project list (/admin/projects/)', () => {
  it('lists every project with its state, dates, figures and what needs attention', async () => {
    loginAs({ isAdmin: true });
    serveList(PROJECTS);
    renderApp('/admin/projects/');

    expect(await screen.findByRole('heading', { level: 1, name: 'プロジェクト管理' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`プロジェクト管理 | ${SITE}`));
    const region = await screen.findByRole('region', { name: 'プロジェクト一覧（横にスクロールできます）' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toHaveClass('admin-scroll');
    const rows = within(region).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'タイトル', '状態', '公開日時', '終了日', '目標金額', '支援総額', '支援者数', 'リターン数', '要対応',
    ]);
    expect(rows).toHaveLength(4);

    const draft = within(region).getByRole('row', { name: /沼田りんごの新しい加工場/ });
    expect(within(draft).getByRole('link', { name: '沼田りんごの新しい加工場' })).toHaveAttribute('href', '/admin/projects/3/');
    expect(within(draft).getByText('下書き')).toBeInTheDocument();
    expect(within(draft).getByText('未定')).toHaveClass('visually-hidden');
    expect(within(draft).getByText('2027年2月28日')).toBeInTheDocument();
    expect(within(draft).getByText('3,000,000円')).toHaveClass('admin-num');
    expect(within(draft).getByText('リターンがありません')).toBeInTheDocument();

    const scheduled = within(region).getByRole('row', { name: /草津の湯畑に灯りを/ });
    expect(within(scheduled).getByText('公開予約')).toBeInTheDocument();
    expect(within(scheduled).getByText('2026年12月5日 09:00')).toBeInTheDocument();

    const open = within(region).getByRole('row', { name: /前橋の夏祭り/ });
    expect(within(open).getByText('募集中')).toBeInTheDocument();
    expect(within(open).getByText('123,000円')).toBeInTheDocument();
    expect(within(open).getByText('42人')).toBeInTheDocument();
    expect(within(open).getByText('終了まであと3日')).toBeInTheDocument();

    expect(screen.getByRole('link', { name: '新しいプロジェクトを作成' })).toHaveAttribute('href', '/admin/projects/new');
  });

  it('filters by state and keeps the state in the address', async () => {
    loginAs({ isAdmin: true });
    const asked = serveList(PROJECTS);
    const user = userEvent.setup();
    const { router } = renderApp('/admin/projects/');

    const filter = await screen.findByRole('combobox', { name: '状態' });
    expect(filter).toHaveValue('');
    expect(within(filter).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'すべて', '下書き', '公開予約', '募集中', '終了',
    ]);
    await screen.findByRole('row', { name: /草津の湯畑に灯りを/ });

    await user.selectOptions(filter, '下書き');

    await waitFor(() => expect(router.location.search).toBe('?state=draft'));
    await waitFor(() => expect(screen.queryByRole('row', { name: /草津の湯畑に灯りを/ })).not.toBeInTheDocument());
    expect(screen.getByRole('row', { name: /沼田りんごの新しい加工場/ })).toBeInTheDocument();
    expect(asked).toEqual([null, 'draft']);

    await user.selectOptions(filter, 'すべて');
    await waitFor(() => expect(router.location.search).toBe(''));
  });

  it('opens with the state the address names', async () => {
    loginAs({ isAdmin: true });
    const asked = serveList(PROJECTS);
    renderApp('/admin/projects/?state=scheduled');

    expect(await screen.findByRole('row', { name: /草津の湯畑に灯りを/ })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '状態' })).toHaveValue('scheduled');
    expect(screen.queryByRole('row', { name: /前橋の夏祭り/ })).not.toBeInTheDocument();
    expect(asked).toEqual(['scheduled']);
  });

  it('says when there is no project yet, and when none has the state asked for', async () => {
    loginAs({ isAdmin: true });
    serveList([]);
    const user = userEvent.setup();
    renderApp('/admin/projects/');

    expect(await screen.findByText('プロジェクトはまだありません。')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: '状態' }), '終了');
    expect(await screen.findByText('「終了」のプロジェクトはありません。')).toBeInTheDocument();
  });

  it('offers a retry when the list cannot be read', async () => {
    loginAs({ isAdmin: true });
    server.use(
      http.get(apiUrl('/admin/projects'), () =>
        HttpResponse.json({ error: 'internal_error', message: 'エラーが発生しました。' }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/admin/projects/');

    expect(await screen.findByRole('alert')).toHaveTextContent('エラーが発生しました。');
    serveList(PROJECTS);
    await user.click(screen.getByRole('button', { name: '再読み込みする' }));
    expect(await screen.findByRole('row', { name: /前橋の夏祭り/ })).toBeInTheDocument();
  });

  it('is Not Found to a member who is not an administrator', async () => {
    loginAs({ isAdmin: false });
    renderApp('/admin/projects/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });
});
