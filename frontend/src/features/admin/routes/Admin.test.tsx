import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { AdminAction, Dashboard } from '../api/dashboardApi';
import { CHART_EMPTY } from '../components/FundingChart';
import { DASHBOARD_EMPTY } from './Admin';

const dashboard: Dashboard = {
  today: '2026-11-26',
  projects: [
    {
      id: 1,
      slug: 'rose',
      title: '前橋ばら園',
      goal: 1_000_000,
      raised: 250_000,
      backers: 12,
      progress: 25,
      daysLeft: 14,
      paid: 275_000,
      paidSales: 13,
      awaitingTransfer: 11_000,
      awaitingSales: 1,
      refunded: 5_500,
      refundedSales: 1,
      series: [
        { day: '2026-11-20', amount: 100_000, cumulative: 150_000 },
        { day: '2026-11-26', amount: 100_000, cumulative: 250_000 },
      ],
    },
    {
      id: 2,
      slug: 'apple',
      title: '沼田りんご',
      goal: 500_000,
      raised: 0,
      backers: 0,
      progress: 0,
      daysLeft: 0,
      paid: 0,
      paidSales: 0,
      awaitingTransfer: 0,
      awaitingSales: 0,
      refunded: 0,
      refundedSales: 0,
      series: [],
    },
  ],
  pendingTransfers: [
    {
      saleId: 31,
      projectId: 1,
      projectTitle: '前橋ばら園',
      email: 'guest@example.jp',
      total: 11_000,
      remaining: 6_000,
      orderedAt: '2026-11-20T10:15:00+09:00',
      deadline: '2026-11-25',
      overdue: true,
    },
  ],
  failedMails: [
    { key: 'job-9', mailId: null, to: 'lost@example.jp', subject: '【ぐんま】会員登録のご案内', attempts: 8, failedAt: '2026-11-26T08:00:00+09:00' },
    { key: 'recipient-4', mailId: 3, to: 'away@example.jp', subject: '秋のお知らせ', attempts: 5, failedAt: '2026-11-26T07:00:00+09:00' },
  ],
};

const action: AdminAction = {
  id: 1,
  actorEmail: 'admin@example.jp',
  action: 'register_mail_resent',
  saleId: null,
  mailId: null,
  projectId: null,
  targetEmail: 'guest@example.jp',
  detail: {},
  createdAt: '2026-11-26T09:05:00+09:00',
};

const serve = (board: Dashboard | { status: number }, actions: AdminAction[] = [action]) => {
  server.use(
    http.get(apiUrl('/admin/get/dashboard'), () =>
      'status' in board ? HttpResponse.json({ error: 'internal' }, { status: board.status }) : HttpResponse.json(board),
    ),
    http.get(apiUrl('/admin/get/actions'), () => HttpResponse.json({ actions })),
  );
};

describe('Admin dashboard', () => {
  it('is Not Found to a visitor, who is not sent to the login page', async () => {
    const { router } = renderApp('/admin/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/admin/');
    expect(screen.queryByRole('navigation', { name: '管理メニュー' })).not.toBeInTheDocument();
  });

  it('links to the admin screens', async () => {
    loginAs({ isAdmin: true });
    serve(dashboard);
    renderApp('/admin/');

    const menu = await screen.findByRole('navigation', { name: '管理メニュー' });
    await waitFor(() => expect(document.title).toMatch(/^管理画面 \| /));
    expect(within(menu).getByRole('link', { name: '登録メールの再送' })).toHaveAttribute('href', '/admin/resendRegisterMail/');
    expect(within(menu).getByRole('link', { name: '送信メール一覧' })).toHaveAttribute('href', '/admin/mail/');
    expect(within(menu).getByRole('link', { name: '返金' })).toHaveAttribute('href', '/admin/refund/');
    expect(within(menu).getByRole('link', { name: 'プロジェクト管理' })).toHaveAttribute('href', '/admin/projects/');
    expect(within(menu).getByRole('link', { name: '精算' })).toHaveAttribute('href', '/admin/payouts/');
  });

  it('shows each project’s figures, its chart with a text alternative and a table', async () => {
    loginAs({ isAdmin: true });
    serve(dashboard);
    const user = userEvent.setup();
    renderApp('/admin/');

    const rose = await screen.findByRole('article', { name: '前橋ばら園' });
    const figure = (label: string) => within(rose).getByText(label).nextElementSibling?.textContent;
    expect(figure('集まった金額')).toBe('250,000円（目標 1,000,000円・25%）');
    expect(figure('支援者数')).toBe('12人');
    expect(figure('残り日数')).toBe('14日');
    expect(figure('入金済み（税込）')).toBe('275,000円（13件）');
    expect(figure('振込待ち')).toBe('11,000円（1件）');
    expect(figure('返金済み')).toBe('5,500円（1件）');
    const chart = within(rose).getByRole('img', { name: /前橋ばら園の累計支援額の推移/ });
    expect(chart).toHaveAccessibleName(/累計250,000円です。/);
    await user.click(within(rose).getByText('日ごとの金額を表で見る'));
    const rows = within(within(rose).getByRole('table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      '日付その日の支援額累計',
      '2026年11月20日100,000円150,000円',
      '2026年11月26日100,000円250,000円',
    ]);
    const apple = screen.getByRole('article', { name: '沼田りんご' });
    expect(within(apple).getByText('終了')).toBeInTheDocument();
    expect(within(apple).getByText(CHART_EMPTY)).toBeInTheDocument();
  });

  it('lists pending transfers with deadlines, failed mails and recent admin actions', async () => {
    loginAs({ isAdmin: true });
    serve(dashboard);
    renderApp('/admin/');

    const transfers = await screen.findByRole('region', { name: '振込待ちの銀行振込' });
    expect(within(transfers).getByText('2026年11月25日')).toBeInTheDocument();
    expect(within(transfers).getByText('期限切れ')).toBeInTheDocument();
    expect(within(transfers).getByText('（残り 6,000円）')).toBeInTheDocument();
    const failed = screen.getByRole('region', { name: '送信に失敗したメール' });
    expect(within(failed).getByText('【ぐんま】会員登録のご案内')).toBeInTheDocument();
    expect(within(failed).getByText(/宛先 lost@example\.jp/)).toBeInTheDocument();
    // A mass-mail recipient links to its mail's page.
    expect(within(failed).getByRole('link', { name: '秋のお知らせ' })).toHaveAttribute('href', '/admin/mail/3/');
    const actions = screen.getByRole('region', { name: '最近の管理操作' });
    expect(await within(actions).findByText('登録メールの再送：guest@example.jp')).toBeInTheDocument();
    expect(within(actions).getByText('2026年11月26日 09:05・admin@example.jp')).toBeInTheDocument();
  });

  it('names the project and the return an authoring action changed, not their ids', async () => {
    loginAs({ isAdmin: true });
    const returnEdit: AdminAction = {
      ...action,
      id: 2,
      action: 'return_updated',
      targetEmail: null,
      projectId: 12,
      detail: { projectTitle: '桐生織の工房', title: '手ぬぐい', returnId: 70 } as unknown as AdminAction['detail'],
    };
    const published: AdminAction = {
      ...returnEdit,
      id: 3,
      action: 'project_published',
      detail: { projectTitle: '桐生織の工房' } as unknown as AdminAction['detail'],
    };
    serve(dashboard, [returnEdit, published]);
    renderApp('/admin/');

    const actions = await screen.findByRole('region', { name: '最近の管理操作' });
    expect(await within(actions).findByText('リターンの編集：桐生織の工房（手ぬぐい）')).toBeInTheDocument();
    expect(within(actions).getByText('プロジェクトの公開：桐生織の工房')).toBeInTheDocument();
    expect(within(actions).queryByText(/#12/)).toBeNull();
  });

  it('names the sponsor a change of the manual sponsor list touched', async () => {
    loginAs({ isAdmin: true });
    const added: AdminAction = {
      ...action,
      id: 4,
      action: 'manual_sponsor_created',
      targetEmail: null,
      projectId: 12,
      detail: { projectTitle: '桐生織の工房', title: '上毛電機株式会社', sponsorId: 9 } as unknown as AdminAction['detail'],
    };
    serve(dashboard, [added]);
    renderApp('/admin/');

    const actions = await screen.findByRole('region', { name: '最近の管理操作' });
    expect(await within(actions).findByText('スポンサー一覧への追加：桐生織の工房（上毛電機株式会社）')).toBeInTheDocument();
  });

  it('says when there is nothing to list', async () => {
    loginAs({ isAdmin: true });
    serve({ ...dashboard, projects: [], pendingTransfers: [], failedMails: [] }, []);
    renderApp('/admin/');

    expect(await screen.findByText(DASHBOARD_EMPTY.projects)).toBeInTheDocument();
    expect(screen.getByText(DASHBOARD_EMPTY.transfers)).toBeInTheDocument();
    expect(screen.getByText(DASHBOARD_EMPTY.failedMails)).toBeInTheDocument();
    expect(await screen.findByText(DASHBOARD_EMPTY.actions)).toBeInTheDocument();
  });

  it('offers a retry when the dashboard cannot be read', async () => {
    loginAs({ isAdmin: true });
    serve({ status: 500 });
    const user = userEvent.setup();
    renderApp('/admin/');

    const retry = await screen.findByRole('button', { name: '再読み込みする' });
    serve(dashboard);
    await user.click(retry);
    expect(await screen.findByRole('article', { name: '前橋ばら園' })).toBeInTheDocument();
  });
});
