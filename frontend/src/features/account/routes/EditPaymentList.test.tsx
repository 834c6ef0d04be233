import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { Sale } from '../api/accountApi';
import { formatYen } from '@/lib/format';
import { formatDate } from '../format';
import { PAYMENT_LIST_MESSAGES } from './EditPaymentList';

const sale = (overrides: Partial<Sale> = {}): Sale => ({
  id: 1,
  created_at: '2026-04-01T23:30:00+09:00',
  project: { title: '前橋まつりを盛り上げたい', slug: 'maebashi-fes' },
  return: { title: 'お礼のお手紙' },
  lot: 2,
  amount: 6000,
  tax: 600,
  extraAmount: 0,
  total: 6600,
  taxLabel: '税別',
  payment_type: 1,
  status: 'succeeded',
  statusLabel: '支払い済み',
  displayname: { id: 31, displayname: '上州太郎' },
  bankTransfer: null,
  konbini: null,
  refundedAmount: 0,
  refundingAmount: 0,
  delivery: null,
  ...overrides,
});

const serveSales = (sales: Sale[]) => {
  const userIds: Array<string | null> = [];
  server.use(
    http.get(apiUrl('/sales/get/list'), ({ request }) => {
      userIds.push(new URL(request.url).searchParams.get('user_id'));
      return HttpResponse.json({ data: sales });
    }),
  );
  return userIds;
};

describe('EditPaymentList', () => {
  it('links each paid sale, and only a paid one, to its receipt', async () => {
    loginAs();
    serveSales([sale({ id: 41 }), sale({ id: 42, status: 'awaiting_bank_transfer', statusLabel: '入金待ち（銀行振込）' })]);
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' });
    const [paid, awaited] = within(list).getAllByRole('listitem');
    expect(within(paid!).getByRole('link', { name: '前橋まつりを盛り上げたいの領収書' })).toHaveAttribute(
      'href',
      '/account/receipts/41',
    );
    expect(within(awaited!).queryByRole('link', { name: /領収書/ })).toBeNull();
  });

  it('shows a refunded sale as refunded, with the amount returned', async () => {
    loginAs();
    serveSales([sale({ statusLabel: '返金済み', refundedAmount: 3000 }), sale({ id: 2 })]);
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' });
    const [refunded, paid] = within(list).getAllByRole('listitem');
    expect(within(refunded!).getByText('返金済み')).toBeInTheDocument();
    expect(within(refunded!).getByText('返金額').nextElementSibling).toHaveTextContent('3,000円');
    expect(within(paid!).queryByText('返金額')).not.toBeInTheDocument();
  });

  it('shows a refund not paid out yet as in progress, never as refunded', async () => {
    loginAs();
    serveSales([sale({ statusLabel: '返金手続き中', refundedAmount: 0, refundingAmount: 1000 })]);
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' });
    const [refunding] = within(list).getAllByRole('listitem');
    expect(within(refunding!).getByText('返金手続き中')).toBeInTheDocument();
    expect(within(refunding!).getByText('返金手続き中の金額').nextElementSibling).toHaveTextContent('1,000円');
    expect(within(refunding!).queryByText('返金額')).not.toBeInTheDocument();
  });


  it('lists the sales with date, project, return, amount, type and status', async () => {
    loginAs();
    const userIds = serveSales([
      sale(),
      sale({
        id: 2,
        amount: 3300,
        tax: 300,
        total: 3300,
        taxLabel: '税込',
        payment_type: 2,
        status: 'requires_action',
        statusLabel: 'お支払い待ち',
        displayname: null,
      }),
    ]);
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const first = within(items[0]!);
    expect(first.getByText('2026.04.01')).toBeInTheDocument();
    expect(first.getByRole('link', { name: '前橋まつりを盛り上げたい' })).toHaveAttribute(
      'href',
      '/projects/maebashi-fes/',
    );
    expect(first.getByText('お礼のお手紙')).toBeInTheDocument();
    // 6,000 yen before tax: what was paid (6,600 yen, tax included) first, the base beside it.
    expect(first.getByText('6,600円（税込）')).toBeInTheDocument();
    expect(first.getByText('税抜 6,000円')).toBeInTheDocument();
    expect(first.getByText('カード')).toBeInTheDocument();
    expect(first.getByText('支払い済み')).toBeInTheDocument();
    expect(within(items[1]!).getByText('銀行振込')).toBeInTheDocument();
    // A tax-included price: one figure, no separate base.
    expect(within(items[1]!).getByText(`${formatYen(3300)}（税込）`)).toBeInTheDocument();
    expect(within(items[1]!).queryByText(/税抜/)).toBeNull();
    expect(within(items[1]!).getByText('お支払い待ち')).toBeInTheDocument();
    expect(userIds).toEqual(['me']);
  });

  it('shows the status and, for a transfer still awaited, where to send the money and by when', async () => {
    loginAs();
    serveSales([
      sale({
        payment_type: 2,
        status: 'awaiting_bank_transfer',
        statusLabel: '入金待ち（銀行振込）',
        bankTransfer: {
          amountRemaining: 6600,
          reference: 'ABCD1234',
          bankName: 'ローカル銀行',
          branchName: 'テスト支店',
          accountType: 'futsu',
          accountTypeLabel: '普通',
          accountNumber: '1234567',
          accountHolderName: 'ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ',
          deadline: '2026-12-01',
          deadlineText: 'お申込日の翌日から3営業日以内（土日・祝日・年末年始を除く）',
        },
      }),
    ]);
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' });
    expect(within(list).getByText('入金待ち（銀行振込）')).toBeInTheDocument();
    const transfer = within(list).getByRole('group', { name: 'お振込先' });
    for (const text of ['6,600', 'ローカル銀行', 'テスト支店', '普通', '1234567', 'ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ', 'ABCD1234', '2026年12月1日']) {
      expect(within(transfer).getByText(new RegExp(text.replace(/[()]/g, '\\$&')))).toBeInTheDocument();
    }    for (const name of ['お振込金額をコピー', '口座番号をコピー', 'お振込人名の前に付ける番号をコピー', 'お振込期限をコピー']) {
      expect(within(transfer).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(within(transfer).getByText('1234567')).toHaveClass('nowrap');
  });

  it('shows an extra amount (上乗せ支援) as its own line beside the total that includes it', async () => {
    loginAs();
    serveSales([sale({ extraAmount: 1500, total: 8100 }), sale({ id: 2 })]);
    renderApp('/edit/payment-list');

    const items = within(await screen.findByRole('list', { name: 'お支払い履歴の一覧' })).getAllByRole('listitem');
    expect(within(items[0]!).getByText('8,100円（税込）')).toBeInTheDocument();
    expect(within(items[0]!).getByText('うち上乗せ支援')).toBeInTheDocument();
    expect(within(items[0]!).getByText('1,500円')).toBeInTheDocument();
    expect(within(items[1]!).queryByText('うち上乗せ支援')).toBeNull();
  });

  it('labels a donation 非課税, not 税込', async () => {
    loginAs();
    serveSales([sale({ amount: 5000, tax: 0, total: 5000, taxLabel: '非課税' })]);
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' });
    expect(within(list).getByText(`${formatYen(5000)}（非課税）`)).toBeInTheDocument();
    expect(within(list).queryByText(/税込|税抜/)).toBeNull();
  });

  it('says when there is no payment yet', async () => {
    loginAs();
    serveSales([]);
    renderApp('/edit/payment-list');

    expect(await screen.findByText(PAYMENT_LIST_MESSAGES.empty)).toBeInTheDocument();
  });

  it('shows the failure when the list cannot be loaded', async () => {
    loginAs();
    server.use(
      http.get(apiUrl('/sales/get/list'), () =>
        HttpResponse.json({ error: 'internal', message: '履歴を取得できませんでした。' }, { status: 500 }),
      ),
    );
    renderApp('/edit/payment-list');

    expect(await screen.findByRole('alert')).toHaveTextContent('履歴を取得できませんでした。');
  });

  it('edits a display name, refusing an empty one', async () => {
    loginAs();
    serveSales([sale()]);
    const bodies = answerPost('/displayname/set/update', { updated: true });
    const user = userEvent.setup();
    renderApp('/edit/payment-list');

    await user.click(await screen.findByRole('button', { name: '前橋まつりを盛り上げたいの表示名を編集する' }));
    const input = screen.getByLabelText('表示名');
    await user.clear(input);
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(screen.getByRole('alert')).toHaveTextContent(PAYMENT_LIST_MESSAGES.displaynameRequired);
    expect(bodies).toEqual([]);

    await user.type(input, 'ぐんまちゃん');
    await user.click(screen.getByRole('button', { name: '保存する' }));

    expect(await screen.findByText(PAYMENT_LIST_MESSAGES.displaynameSaved)).toBeInTheDocument();
    expect(bodies).toEqual([{ id: 31, displayname: 'ぐんまちゃん' }]);
  });
  it('shows whether the return is shipped, with the day and the tracking note', async () => {
    loginAs();
    serveSales([
      sale({
        id: 51,
        delivery: { state: 'shipped', label: '発送済み', shippedOn: '2026-11-27', note: 'ヤマト運輸 1234-5678' },
      }),
      sale({ id: 52, return: { title: 'ばらの苗' }, delivery: { state: 'unshipped', label: '未発送', shippedOn: null, note: null } }),
      sale({ id: 53, return: { title: '入金待ちのリターン' }, status: 'awaiting_bank_transfer', statusLabel: '入金待ち（銀行振込）' }),
    ]);
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' });
    const [shipped, unshipped, awaiting] = within(list).getAllByRole('listitem');
    expect(within(shipped!).getByText('発送状況').nextSibling).toHaveTextContent('発送済み（2026年11月27日 発送）発送メモ：ヤマト運輸 1234-5678');
    expect(within(shipped!).getByText('2026年11月27日')).toHaveAttribute('datetime', '2026-11-27');
    expect(within(unshipped!).getByText('発送状況').nextSibling).toHaveTextContent(/^未発送$/);
    expect(within(awaiting!).queryByText('発送状況')).not.toBeInTheDocument();
  });
});

describe('formatDate', () => {
  it('writes dates as YYYY.MM.DD in Japan time', () => {
    expect(formatDate('2026-04-01T15:30:00Z')).toBe('2026.04.02');
    expect(formatDate('not a date')).toBe('');
  });
});
