import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { Sale } from '../api/accountApi';

const waiting: Sale = {
  id: 7,
  created_at: '2026-11-26T10:00:00+09:00',
  project: { title: '前橋まつりを盛り上げたい', slug: 'maebashi-fes' },
  return: { title: 'お礼のお手紙' },
  lot: 2,
  amount: 6000,
  tax: 600,
  extraAmount: 0,
  total: 6600,
  taxLabel: '税別',
  payment_type: 3,
  status: 'requires_action',
  statusLabel: '支払い待ち（コンビニ）',
  displayname: { id: 31, displayname: '上州太郎' },
  bankTransfer: null,
  konbini: {
    expiresAt: '2026-11-29T23:59:59+09:00',
    expiresAtText: '2026年11月29日（日）23:59',
    hostedVoucherUrl: 'https://payments.stripe.com/konbini/voucher/test_pi_7',
    stores: [
      { chain: 'familymart', chainName: 'ファミリーマート', paymentCode: '123456789012', confirmationNumber: '09012345678' },
      { chain: 'seicomart', chainName: 'セイコーマート', paymentCode: '423456789012', confirmationNumber: null },
    ],
  },
  refundedAmount: 0,
  refundingAmount: 0,
  delivery: null,
};

describe('a konbini sale in the payment history', () => {
  it('shows 支払い待ち（コンビニ） with the chains, the numbers and the deadline', async () => {
    loginAs();
    server.use(http.get(apiUrl('/sales/get/list'), () => HttpResponse.json({ data: [waiting] })));
    renderApp('/edit/payment-list');

    const list = await screen.findByRole('list', { name: 'お支払い履歴の一覧' }, { timeout: 5000 });
    const [item] = within(list).getAllByRole('listitem');
    expect(within(item!).getByText('支払い待ち（コンビニ）')).toBeInTheDocument();
    expect(within(item!).getByText('コンビニ決済')).toBeInTheDocument();
    const voucher = within(item!).getByRole('group', { name: 'コンビニでのお支払い方法' });
    expect(within(voucher).getByText('2026年11月29日（日）23:59')).toBeInTheDocument();
    expect(within(within(voucher).getByRole('region', { name: 'ファミリーマート' })).getByText('123456789012')).toBeInTheDocument();
    expect(within(voucher).getByRole('link', { name: /払込票/ })).toHaveAttribute(
      'href',
      'https://payments.stripe.com/konbini/voucher/test_pi_7',
    );
    expect(within(item!).queryByRole('link', { name: /領収書/ })).toBeNull();
  });
});
