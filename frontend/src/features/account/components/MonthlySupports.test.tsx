import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';

const active = {
  id: 12,
  projectTitle: '高崎だるま 若手職人育成プロジェクト',
  projectSlug: 'takasaki-daruma',
  returnTitle: 'サポーターズクラブ（毎月のご支援）',
  amount: 1100,
  status: 'active',
  stoppable: true,
  nextChargeDate: '2026-12-26',
  endsOn: null,
  cardId: 'card_1',
  cardBrand: 'Visa',
  cardLast4: '4242',
};

describe('MonthlySupports on my page', () => {
  it('links a support whose payment failed to the card screen and to the page that completes 3-D Secure', async () => {
    loginAs({ customerId: 'cus_monthly' });
    serveUser(makeUser());
    server.use(
      http.get(apiUrl('/stripe/subscription/get/list'), () =>
        HttpResponse.json({ subscriptions: [{ ...active, status: 'past_due' }] }),
      ),
    );
    renderApp('/account/');

    const region = await screen.findByRole('region', { name: '毎月のご支援' });
    const item = await within(region).findByRole('article', { name: active.projectTitle });
    expect(within(item).getByRole('link', { name: 'お支払い方法の管理' })).toHaveAttribute('href', '/edit/payment');
    expect(within(item).getByRole('link', { name: '本人認証のページ' })).toHaveAttribute(
      'href',
      '/account/monthly/12/authenticate',
    );
  });

  it('lists a monthly support and stops it after a confirmation', async () => {
    loginAs({ customerId: 'cus_monthly' });
    serveUser(makeUser());
    let cancelled: unknown = null;
    server.use(
      http.get(apiUrl('/stripe/subscription/get/list'), () => HttpResponse.json({ subscriptions: [active] })),
      http.post(apiUrl('/stripe/subscription/set/cancel'), async ({ request }) => {
        cancelled = await request.json();
        return HttpResponse.json({
          subscription: { ...active, status: 'canceling', stoppable: false, nextChargeDate: null, endsOn: '2026-12-26' },
        });
      }),
    );
    renderApp('/account/');

    const region = await screen.findByRole('region', { name: '毎月のご支援' });
    const item = await within(region).findByRole('article', { name: active.projectTitle });
    expect(within(item).getByText('1,100円/月（税込）')).toBeInTheDocument();
    expect(within(item).getByText('2026年12月26日')).toBeInTheDocument();
    expect(within(item).getByText('Visa 末尾4242')).toBeInTheDocument();

    await userEvent.click(within(item).getByRole('button', { name: 'この毎月のご支援を停止する' }));
    const dialog = screen.getByRole('dialog', { name: '毎月のご支援の停止' });
    await userEvent.click(within(dialog).getByRole('button', { name: '停止する' }));
    expect(
      await within(region).findByText(/毎月のご支援の停止を承りました。2026年12月26日まではご支援が続き/),
    ).toBeInTheDocument();
    expect(cancelled).toEqual({ id: 12 });
  });

  it('says when there is none', async () => {
    loginAs({ customerId: 'cus_monthly' });
    serveUser(makeUser());
    renderApp('/account/');
    const region = await screen.findByRole('region', { name: '毎月のご支援' });
    expect(await within(region).findByText('毎月のご支援はありません。')).toBeInTheDocument();
  });
});
