import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { RefundSale } from './api/refundsApi';

const PROJECT = { id: 4, slug: 'kiryu-textile', title: '桐生織の工房を次の世代へ', refundable: 0, refunded: 1, refundRequired: 0 };

const sale = (overrides: Partial<RefundSale>): RefundSale => ({
  id: 81,
  amount: 10_000,
  total: 11_000,
  course: null,
  createdAt: '2026-11-20T10:00:00+09:00',
  flag: 11,
  lastFailure: null,
  lastFailureDetail: null,
  lot: 1,
  openRefundAmount: null,
  paymentType: 1,
  refundedAmount: 11_000,
  refundableAmount: 0,
  halfRefundAmount: null,
  refundRequired: false,
  returnTitle: '桐生織ストール',
  sponsorName: '群馬 太郎',
  state: 'refunded',
  users: { username: null, displayname: '群馬 太郎', corporatename: null },
  ...overrides,
});

const serveProject = (sales: RefundSale[]) => {
  const started: unknown[] = [];
  server.use(
    http.get(apiUrl('/admin/get/refundProjects'), () => HttpResponse.json({ projects: [PROJECT] })),
    http.get(apiUrl('/sales/get/list'), () => HttpResponse.json({ data: { data: sales } })),
    http.get(apiUrl('/admin/get/bulkRefund'), () => HttpResponse.json({ job: null })),
    http.post(apiUrl('/admin/set/bulkRefund'), async ({ request }) => {
      started.push(await request.json());
      return HttpResponse.json({ job: null });
    }),
  );
  return started;
};

describe('the refund screen of a project', () => {
  it('refuses a bulk refund when nothing is left to refund, and asks nothing', async () => {
    loginAs({ isAdmin: true });
    const started = serveProject([
      sale({}),
      sale({ id: 82, state: 'needs_bank_details', flag: 1, paymentType: 2, refundedAmount: 0, openRefundAmount: 3_000 }),
    ]);
    const user = userEvent.setup();
    renderApp(`/admin/refund/${PROJECT.slug}`);
    expect(await screen.findByRole('heading', { level: 1, name: `返金：${PROJECT.title}` })).toBeInTheDocument();
    const waiting = await screen.findByRole('row', { name: /群馬 太郎銀行振込/ });
    expect(within(waiting).getByText('口座情報の入力待ち')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('返金方法'), '半額');
    await user.click(screen.getByRole('button', { name: '一括返金' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(/^返金できる購入情報がありません。$/);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(started).toEqual([]);
  });
});

describe('a refund that lapsed unclaimed', () => {
  it('shows 未請求（期限切れ） with the reason, and no refund button', async () => {
    loginAs({ isAdmin: true });
    serveProject([
      sale({ id: 84, state: 'unclaimed', flag: 1, paymentType: 2, refundedAmount: 0, refundableAmount: 0, halfRefundAmount: null }),
    ]);
    renderApp(`/admin/refund/${PROJECT.slug}`);

    const row = await screen.findByRole('row', { name: /群馬 太郎銀行振込/ });
    const state = within(row).getByText('未請求（期限切れ）');
    expect(state).toHaveAttribute('title', expect.stringContaining('規約により返金額は当社に帰属します'));
    expect(within(row).queryByRole('button', { name: /返金する/ })).not.toBeInTheDocument();
  });
});

describe('the refund table on any width', () => {
  it('uses the admin width and scrolls sideways in a focusable, named region; amounts never wrap', async () => {
    loginAs({ isAdmin: true });
    serveProject([
      sale({ id: 83, state: 'refundable', flag: 1, refundedAmount: 0, total: 10_000, refundableAmount: 10_000, halfRefundAmount: 5_000 }),
    ]);
    renderApp(`/admin/refund/${PROJECT.slug}`);

    const region = await screen.findByRole('region', { name: '支援一覧（横にスクロールできます）' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toHaveClass('admin-scroll');
    expect(region.closest('section.page')).toHaveClass('page--admin');
    const row = within(region).getByRole('row', { name: /群馬 太郎/ });
    expect(within(row).getByText('10,000円')).toHaveClass('admin-num');
    expect(within(row).getByRole('button', { name: '群馬 太郎さんの支援を返金する' })).toBeInTheDocument();
    expect(within(row).getByRole('spinbutton', { name: '群馬 太郎さんへの返金額（円）' }).closest('td')).toHaveClass(
      'refund-table__amount-cell',
    );
  });
});
