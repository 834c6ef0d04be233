import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import {
  PROJECT,
  RETURN,
  answerSupport,
  guestAfterStep1,
  konbiniVoucher,
  paymentProject,
  paymentReturn,
  serveProject,
  serveQuote,
  storeRecord,
  supportResult,
} from '../testing/fixtures';

const step = (name: string, query = '') => `/payment/${name}/${PROJECT}/${RETURN}/${query}`;

const TOO_LATE =
  'コンビニ決済は、お支払い期限（お申し込みの3日後の23:59）がプロジェクトの終了日を過ぎるため、ご利用いただけません。';

describe('konbini at step 2', () => {
  it('offers コンビニ決済 when the project accepts it and goes to confirm with paymentType=3', async () => {
    serveProject(paymentProject({ paymentTypes: [1, 2, 3] }));
    serveQuote();
    guestAfterStep1();
    const user = userEvent.setup();
    const { router } = renderApp(step('method'));

    const konbini = await screen.findByRole('radio', { name: /コンビニ決済/ });
    expect(screen.getByText(/ファミリーマート・ローソン・ミニストップ・セイコーマートで/)).toBeInTheDocument();
    await user.click(konbini);
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() =>
      expect(`${router.location.pathname}${router.location.search}`).toBe(step('confirm', '?paymentType=3')),
    );
  });

  it('says why konbini is not offered near the end, and offers the rest', async () => {
    serveProject(
      paymentProject({ paymentTypes: [1, 2], unavailablePaymentTypes: [{ paymentType: 3, message: TOO_LATE }] }),
    );
    guestAfterStep1();
    renderApp(step('method'));

    expect(await screen.findByText(TOO_LATE)).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /コンビニ決済/ })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /銀行振込/ })).toBeInTheDocument();
  });

  it('offers no konbini for a monthly support', async () => {
    serveProject(
      paymentProject({
        paymentTypes: [1, 2, 3],
        returns: [paymentReturn({ title: 'サポーターズクラブ', interval: 'month' })],
      }),
    );
    guestAfterStep1();
    renderApp(step('method'));

    expect(await screen.findByRole('radio', { name: /クレジットカード/ })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /コンビニ決済/ })).not.toBeInTheDocument();
  });
});

describe('konbini at step 4', () => {
  it('says how konbini works, applies (申し込む) and sends paymentType 3 without a card', async () => {
    serveProject(paymentProject({ paymentTypes: [1, 2, 3] }));
    serveQuote();
    guestAfterStep1();
    const bodies = answerSupport({
      status: 200,
      body: supportResult({ konbini: konbiniVoucher }, { status: 'requires_action', paymentType: 3 }),
    });
    const user = userEvent.setup();
    const { router } = renderApp(step('confirm', '?paymentType=3'));

    const apply = await screen.findByRole('button', { name: '申し込む' });
    expect(screen.getByText('コンビニ決済')).toBeInTheDocument();
    expect(screen.getByText(/お支払い期限：お申し込みの3日後の23:59/)).toBeInTheDocument();
    await user.click(apply);

    await waitFor(() => expect(router.location.pathname).toBe(step('complete')));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ paymentType: 3 });
    expect(bodies[0]).not.toHaveProperty('card');
  });

  it('shows the Invalid page for konbini when the project does not take it', async () => {
    serveProject(paymentProject({ paymentTypes: [1, 2] }));
    serveQuote();
    guestAfterStep1();
    renderApp(step('confirm', '?paymentType=3'));
    expect(await screen.findByText(/最初からやりなおしてください/)).toBeInTheDocument();
  });
});

describe('konbini at step 5', () => {
  it('shows every chain with its numbers, the deadline as a Japanese date and time, and the voucher link', async () => {
    storeRecord({ supportType: 'guest', guestEmail: 'guest@example.jp' });
    window.sessionStorage.setItem(
      'payment.receipt',
      JSON.stringify({ receipt: 'rcpt_41', returnKey: `${PROJECT}/${RETURN}`, paymentType: 3 }),
    );
    serveProject(paymentProject({ paymentTypes: [1, 2, 3] }));
    server.use(
      http.get(apiUrl('/payment/get/status'), () =>
        HttpResponse.json(
          supportResult({ konbini: konbiniVoucher }, { status: 'requires_action', statusLabel: '支払い待ち（コンビニ）', paymentType: 3 }),
        ),
      ),
    );
    renderApp(step('complete'));

    const voucher = await screen.findByRole('group', { name: 'コンビニでのお支払い方法' });
    expect(screen.getByText(/コンビニエンスストアでお支払いください/)).toBeInTheDocument();
    expect(within(voucher).getByText('2026年11月29日（日）23:59')).toBeInTheDocument();
    expect(within(voucher).getByText('6,600円')).toBeInTheDocument();
    const lawson = within(voucher).getByRole('region', { name: 'ローソン' });
    expect(within(lawson).getByText('223456789012')).toBeInTheDocument();
    expect(within(lawson).getByRole('button', { name: 'ローソンのお客様番号をコピー' })).toBeInTheDocument();
    expect(within(lawson).getByRole('button', { name: 'ローソンの確認番号をコピー' })).toBeInTheDocument();
    const seicomart = within(voucher).getByRole('region', { name: 'セイコーマート' });
    expect(within(seicomart).queryByText('確認番号')).not.toBeInTheDocument();
    expect(within(voucher).getByRole('link', { name: /払込票/ })).toHaveAttribute(
      'href',
      'https://payments.stripe.com/konbini/voucher/test_pi_1',
    );
    expect(screen.queryByText('ご支援ありがとうございました。')).not.toBeInTheDocument();
  });
});
