import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { PAYMENT_MESSAGES } from '../messages';
import {
  PROJECT,
  RETURN,
  SETUP_SECRET,
  answerCardSetup,
  answerSupport,
  bankTransfer,
  card,
  fakeStripe,
  guestAfterStep1,
  paymentProject,
  paymentReturn,
  readRecord,
  serveCards,
  serveLibrary,
  serveProject,
  serveQuote,
  serveSetUpCard,
  setUpIntent,
  storeRecord,
  supportResult,
} from '../testing/fixtures';

const step = (name: string, query = '') => `/payment/${name}/${PROJECT}/${RETURN}/${query}`;

// Stripe.js is loaded once per page, so one fake serves the whole file; its spies are reset per test.
const fake = fakeStripe();

beforeEach(() => {
  fake.stripe.confirmCardSetup.mockReset();
  fake.stripe.confirmCardPayment.mockReset();
  window.sessionStorage.clear();
});

/** Step 3 of a member: opens the card-register modal, types a Visa and presses 登録する; the modal. */
const registerTypedCard = async (user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> => {
  await user.click(await screen.findByRole('button', { name: '新しいカードを登録する' }));
  const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの登録' });
  await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'カード番号' })).toBeInTheDocument());
  act(() => fake.type({ number: '4242424242424242' }));
  await user.click(within(dialog).getByRole('button', { name: '登録する' }));
  return dialog;
};

const memberAfterStep1 = () => {
  loginAs();
  serveUser(makeUser());
  storeRecord({
    supportType: 'login',
    user_id: 7,
    returnKey: `${PROJECT}/${RETURN}`,
    lot: 2,
    displayname: '上州太郎',
    anonymous: false,
    agreeTerms: true,
    notAntisocial: true,
  });
};

describe('flow rules', () => {
  it.each(['method', 'card', 'confirm'])('shows the Invalid page on step %s without the stored lot', async (name) => {
    serveProject();
    storeRecord({ supportType: 'guest' });
    renderApp(step(name, name === 'confirm' ? '?paymentType=2' : ''));

    expect(await screen.findByText(PAYMENT_MESSAGES.invalidOperation)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });

  it('ignores a lot stored for another return', async () => {
    serveProject();
    guestAfterStep1({ returnKey: `${PROJECT}/other-course` });
    renderApp(step('method'));
    expect(await screen.findByText(PAYMENT_MESSAGES.invalidOperation)).toBeInTheDocument();
  });

  it.each(['method', 'complete'])('shows Not Found on step %s without a support type', async (name) => {
    serveProject();
    renderApp(step(name));
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });
});

describe('payment step 2', () => {
  it('offers only the methods the project accepts; a card goes to step 3', async () => {
    serveProject(paymentProject({ paymentTypes: [1] }));
    serveLibrary();
    guestAfterStep1();
    const user = userEvent.setup();
    const { router } = renderApp(step('method'));

    const card = await screen.findByRole('radio', { name: /クレジットカード/ });
    expect(screen.queryByRole('radio', { name: /銀行振込/ })).not.toBeInTheDocument();
    expect(card).toBeChecked();
    expect(screen.getByRole('link', { name: '戻る' })).toHaveAttribute('href', step('info'));
    expect(within(screen.getByRole('list', { name: 'お申し込みの手順' })).getByText('2').closest('li')).toHaveAttribute(
      'aria-current',
      'step',
    );
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(router.location.pathname).toBe(step('card')));
  });

  it('sends a bank transfer straight to confirm with paymentType=2', async () => {
    serveProject();
    serveQuote();
    guestAfterStep1();
    const user = userEvent.setup();
    const { router } = renderApp(step('method'));

    await user.click(await screen.findByRole('radio', { name: /銀行振込/ }));
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(`${router.location.pathname}${router.location.search}`).toBe(step('confirm', '?paymentType=2')));
  });

  it('redirects the bank step to confirm with paymentType=2', async () => {
    serveProject();
    serveQuote();
    guestAfterStep1();
    const { router } = renderApp(step('bank'));
    await waitFor(() => expect(router.location.search).toBe('?paymentType=2'));
    expect(router.location.pathname).toBe(step('confirm'));
  });
});

describe('payment step 3 for members', () => {
  it('keeps the default card, or uses another for this payment only', async () => {
    memberAfterStep1();
    serveProject();
    serveQuote();
    serveLibrary();
    serveCards([card(), card({ id: 'card_jcb', brand: 'JCB', last4: '0005' })], 'card_visa');
    const user = userEvent.setup();
    const { router } = renderApp(step('card'));

    expect(await screen.findByText('Visa **** 4242')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'カードを選択する' }));
    const dialog = screen.getByRole('dialog', { name: 'お支払いに使うカードを選択' });
    expect(within(dialog).getByRole('radio', { name: /Visa \*\*\*\* 4242/ })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: /JCB \*\*\*\* 0005/ }));
    await user.click(within(dialog).getByRole('button', { name: 'このカードで支払う' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('JCB **** 0005')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(router.location.search).toBe('?paymentType=1'));
  });

  it('sets another card as the default, and says so when that fails', async () => {
    memberAfterStep1();
    serveProject();
    serveLibrary();
    serveCards([card(), card({ id: 'card_jcb', brand: 'JCB', last4: '0005' })], 'card_visa');
    const changes = answerPost('/stripe/customer/set/changeDefaultCard', { status: 500, body: { error: 'internal', message: 'x' } });
    const user = userEvent.setup();
    renderApp(step('card'));

    await user.click(await screen.findByRole('button', { name: 'カードを選択する' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: /JCB/ }));
    await user.click(within(dialog).getByRole('button', { name: 'このカードをデフォルトに設定して支払う' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PAYMENT_MESSAGES.defaultCardFailed);
    expect(changes).toEqual([{ card_id: 'card_jcb' }]);

    answerPost('/stripe/customer/set/changeDefaultCard', { default: 'card_jcb' });
    serveCards([card(), card({ id: 'card_jcb', brand: 'JCB', last4: '0005' })], 'card_jcb');
    await user.click(within(dialog).getByRole('button', { name: 'このカードをデフォルトに設定して支払う' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('JCB **** 0005')).toBeInTheDocument();
  });

  it('registers a card with Stripe.js once the input is complete, then opens the card select', async () => {
    memberAfterStep1();
    serveProject();
    serveLibrary();
    serveCards([]);
    const registered = answerPost('/stripe/customer/set/updater', {
      card: card(),
      data: { cards: [card()], default: 'card_visa' },
    });
    const setups = answerCardSetup();
    fake.stripe.confirmCardSetup
      .mockResolvedValueOnce({ error: { message: 'カード番号が正しくありません。' } })
      .mockResolvedValueOnce(setUpIntent('pm_visa'));
    const user = userEvent.setup();
    renderApp(step('card'));

    expect(await screen.findByText(/登録済みのカードがありません/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '次へ' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: '新しいカードを登録する' }));
    const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの登録' });
    const register = await within(dialog).findByRole('button', { name: '登録する' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'カード番号' })).toBeInTheDocument());
    expect(register).toBeDisabled();
    act(() => fake.change({ complete: false, error: { message: 'カード番号が不完全です。' } }));
    expect(within(dialog).getByText('カード番号が不完全です。')).toBeInTheDocument();
    act(() => fake.change({ complete: true }));
    expect(register).toBeEnabled();

    await user.click(register);
    expect(await within(dialog).findByText('カード番号が正しくありません。')).toBeInTheDocument();
    expect(registered).toEqual([]);

    // A read of the card list again is not answered before the end: the modal must not wait for it to choose
    // the new card.
    let answerCards: () => void = () => undefined;
    const cardsAnswered = new Promise<void>((resolve) => {
      answerCards = resolve;
    });
    server.use(
      http.get(apiUrl('/stripe/customer/get/cards'), async () => {
        await cardsAnswered;
        return HttpResponse.json({ data: { cards: [card()], default: 'card_visa' } });
      }),
    );
    await user.click(register);
    await waitFor(() => expect(registered).toEqual([{ source: 'pm_visa', isCardRegist: true }]));
    // Each try set up the card anew, with the client secret the server gave.
    expect(setups).toHaveLength(2);
    expect(fake.stripe.confirmCardSetup).toHaveBeenCalledTimes(2);
    expect(fake.stripe.confirmCardSetup).toHaveBeenLastCalledWith(SETUP_SECRET, { payment_method: { card: fake.element } });
    expect(await screen.findByText(PAYMENT_MESSAGES.cardRegistered)).toBeInTheDocument();
    const select = await screen.findByRole('dialog', { name: 'お支払いに使うカードを選択' });
    expect(within(select).getByRole('radio', { name: /Visa \*\*\*\* 4242/ })).toBeChecked();
    answerCards();
  });

  it("shows the server's refusal of a card", async () => {
    memberAfterStep1();
    serveProject();
    serveLibrary();
    serveCards([]);
    answerPost('/stripe/customer/set/updater', { status: 502, body: { error: 'customer_failed', message: PAYMENT_MESSAGES.customerFailed } });
    answerCardSetup();
    fake.stripe.confirmCardSetup.mockResolvedValue(setUpIntent('pm_visa'));
    const user = userEvent.setup();
    renderApp(step('card'));

    const dialog = await registerTypedCard(user);
    expect(await within(dialog).findByText(PAYMENT_MESSAGES.customerFailed)).toBeInTheDocument();
  });

  it('says the customer could not be made when the set-up cannot start, before Stripe.js sees the card', async () => {
    memberAfterStep1();
    serveProject();
    serveLibrary();
    serveCards([]);
    const setups = answerCardSetup({
      status: 502,
      body: { error: 'customer_failed', message: PAYMENT_MESSAGES.customerFailed },
    });
    const registered = answerPost('/stripe/customer/set/updater', { card: card(), data: { cards: [card()], default: 'card_visa' } });
    fake.stripe.confirmCardSetup.mockResolvedValue(setUpIntent('pm_visa'));
    const user = userEvent.setup();
    renderApp(step('card'));

    const dialog = await registerTypedCard(user);

    // The form's alert, not the card-errors area: nothing is wrong with the card.
    const failure = await within(dialog).findByText(PAYMENT_MESSAGES.customerFailed);
    expect(failure).not.toHaveAttribute('data-field');
    expect(failure.closest('.notice')).toHaveAttribute('role', 'alert');
    expect(setups).toHaveLength(1);
    expect(fake.stripe.confirmCardSetup).not.toHaveBeenCalled();
    expect(registered).toEqual([]);
    // Another try is possible.
    expect(within(dialog).getByRole('button', { name: '登録する' })).toBeEnabled();
  });
});

describe('payment steps 3 and 4 for guests', () => {
  it('keeps the set-up card in memory only and pays with it', async () => {
    serveProject();
    serveLibrary();
    serveQuote();
    guestAfterStep1();
    const setups = answerCardSetup();
    fake.stripe.confirmCardSetup.mockResolvedValue(setUpIntent('pm_guest'));
    const described = serveSetUpCard(card({ id: 'pm_guest', brand: 'Visa', last4: '4242', expYear: 2034 }));
    const bodies = answerSupport({ status: 200, body: supportResult() });
    const user = userEvent.setup();
    const { router } = renderApp(step('card'));

    await waitFor(() => expect(screen.getByRole('textbox', { name: 'カード番号' })).toBeInTheDocument());
    act(() => fake.change({ complete: true }));
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(router.location.search).toBe('?paymentType=1'));
    expect(setups).toEqual(['']);
    expect(fake.stripe.confirmCardSetup).toHaveBeenCalledWith(SETUP_SECRET, { payment_method: { card: fake.element } });
    // The card is named by what the server reads from the confirmed set-up.
    expect(described).toEqual([SETUP_SECRET]);
    expect(JSON.stringify({ ...window.localStorage })).not.toContain('pm_guest');
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('pm_guest');

    expect(await screen.findByText('クレジットカード（Visa **** 4242）')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '6,600円を支払う' }));
    await waitFor(() => expect(router.location.pathname).toBe(step('complete')));
    expect(bodies[0]).toMatchObject({
      projectId: 1,
      returnId: 3,
      lot: 2,
      paymentType: 1,
      displayname: '上州太郎',
      anonymous: false,
      agreeTerms: true,
      notAntisocial: true,
      card: { paymentMethod: 'pm_guest', save: false },
      guestEmail: 'guest@example.jp',
    });
  });

  it('stays on step 3 and says so when the set-up card cannot be read', async () => {
    serveProject();
    serveLibrary();
    guestAfterStep1();
    answerCardSetup();
    fake.stripe.confirmCardSetup.mockResolvedValue(setUpIntent('pm_guest'));
    const described = serveSetUpCard({ status: 404, body: { error: 'not_found', message: 'x' } });
    const user = userEvent.setup();
    const { router } = renderApp(step('card'));

    await waitFor(() => expect(screen.getByRole('textbox', { name: 'カード番号' })).toBeInTheDocument());
    act(() => fake.change({ complete: true }));
    await user.click(screen.getByRole('button', { name: '次へ' }));

    const failure = await screen.findByText(PAYMENT_MESSAGES.cardInfoFailed);
    expect(failure.closest('.notice')).toHaveAttribute('role', 'alert');
    expect(described).toEqual([SETUP_SECRET]);
    expect(router.location.pathname).toBe(step('card'));
    expect(JSON.stringify({ ...window.localStorage })).not.toContain('pm_guest');
  });

  it('asks a guest to enter the card again after a reload lost it', async () => {
    serveProject();
    serveQuote();
    serveLibrary();
    guestAfterStep1();
    renderApp(step('confirm', '?paymentType=1'));
    expect(await screen.findByText(PAYMENT_MESSAGES.guestCardLost)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /を支払う/ })).toBeDisabled();
  });
});

describe('payment step 4', () => {
  const renderBankConfirm = async () => {
    serveProject();
    serveQuote();
    guestAfterStep1({ comment: '応援しています' });
    const user = userEvent.setup();
    const view = renderApp(step('confirm', '?paymentType=2'));
    const pay = await screen.findByRole('button', { name: '申し込む' });
    return { user, pay, ...view };
  };

  it("shows the server's figures, what is bought, the bank deadline and the notices", async () => {
    await renderBankConfirm();
    expect(screen.getByText('6,600円')).toBeInTheDocument();
    expect(screen.getByText('消費税（10%）')).toBeInTheDocument();
    expect(screen.getByText('600円')).toBeInTheDocument();
    expect(screen.getByText('2口')).toBeInTheDocument();
    expect(screen.getByText('上州太郎')).toBeInTheDocument();
    expect(screen.getByText('応援しています')).toBeInTheDocument();
    expect(screen.getByText(/お申込日の翌日から3営業日以内（土日・祝日・年末年始を除く）/)).toBeInTheDocument();
    expect(screen.getByText(/振込手数料はご負担ください/)).toBeInTheDocument();
    expect(screen.getByText('お支払い完了後のキャンセル・返金はお受けできません。')).toBeInTheDocument();
    expect(screen.getByText('リターンのお届けまでに数か月かかる場合があります。')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '戻る' })).toHaveAttribute('href', step('method'));
  });

  it("shows an extra amount as its own line with the server's total, and sends the amount but never a total", async () => {
    serveProject();
    serveQuote();
    guestAfterStep1({ extraAmount: 1500 });
    const bodies = answerSupport({
      status: 200,
      body: supportResult({ bankTransfer }, { status: 'awaiting_bank_transfer', paymentType: 2, extraAmount: 1500 }),
    });
    const user = userEvent.setup();
    renderApp(step('confirm', '?paymentType=2'));
    const pay = await screen.findByRole('button', { name: '申し込む' });

    expect(screen.getByText('上乗せ支援（消費税対象外）')).toBeInTheDocument();
    expect(screen.getByText('1,500円')).toBeInTheDocument();
    // 6,600 yen for two lots plus the extra, as the server answered it.
    expect(screen.getByText('8,100円')).toBeInTheDocument();
    await user.click(pay);

    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.extraAmount).toBe(1500);
    expect(bodies[0]).not.toHaveProperty('total');
  });

  it('sends one request for a double click, and clears the support record after success', async () => {
    const bodies = answerSupport({
      status: 200,
      body: supportResult({ bankTransfer }, { status: 'awaiting_bank_transfer', paymentType: 2 }),
    });
    const { user, pay, router } = await renderBankConfirm();
    await user.dblClick(pay);
    expect(screen.getByRole('button', { name: /決済処理中/ })).toBeDisabled();

    await waitFor(() => expect(router.location.pathname).toBe(step('complete')));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.idempotencyKey).toEqual(expect.any(String));
    expect(readRecord()).toEqual({ supportType: 'guest', guestEmail: 'guest@example.jp' });
    expect(window.sessionStorage.getItem('payment.attempt')).toBeNull();
    expect(await screen.findByText('ローカル銀行')).toBeInTheDocument();
  });

  it('retries after a 503 with the same key', async () => {
    const bodies = answerSupport(
      { status: 503, body: { error: 'payment_unavailable', message: '決済の登録に失敗しました' } },
      { status: 200, body: supportResult({ bankTransfer }, { status: 'awaiting_bank_transfer', paymentType: 2 }) },
    );
    const { user, pay, router } = await renderBankConfirm();
    await user.click(pay);
    expect(await screen.findByText(PAYMENT_MESSAGES.paymentFailed)).toBeInTheDocument();
    expect(readRecord().lot).toBe(2);

    await user.click(pay);
    await waitFor(() => expect(router.location.pathname).toBe(step('complete')));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]!.idempotencyKey).toBe(bodies[0]!.idempotencyKey);
  });

  it("shows the server's message when the return is sold out", async () => {
    answerSupport({ status: 409, body: { error: 'sold_out', message: '支援上限に達しました' } });
    const { user, pay } = await renderBankConfirm();
    await user.click(pay);
    expect(await screen.findByText('支援上限に達しました')).toBeInTheDocument();
  });

  it('shows a declined card and pays with another under a new key', async () => {
    memberAfterStep1();
    serveProject();
    serveLibrary();
    serveQuote();
    serveCards([card()]);
    const bodies = answerSupport(
      { status: 402, body: { error: 'card_declined', message: PAYMENT_MESSAGES.cardDeclined } },
      { status: 200, body: supportResult() },
    );
    const user = userEvent.setup();
    const { router } = renderApp(step('confirm', '?paymentType=1'));
    const pay = await screen.findByRole('button', { name: '6,600円を支払う' });
    await user.click(pay);

    expect(await screen.findByText(PAYMENT_MESSAGES.cardDeclined)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '別のカードを選択する' })).toHaveAttribute('href', step('card'));
    await user.click(pay);
    await waitFor(() => expect(router.location.pathname).toBe(step('complete')));
    expect(bodies[0]!.card).toEqual({ cardId: 'card_visa' });
    expect(bodies[1]!.idempotencyKey).not.toBe(bodies[0]!.idempotencyKey);
  });

  it('runs 3-D Secure with Stripe.js, then reads the outcome from the server', async () => {
    memberAfterStep1();
    serveProject();
    serveQuote();
    serveLibrary();
    serveCards([card()]);
    answerSupport({
      status: 200,
      body: supportResult(
        { nextAction: { type: 'authenticate', clientSecret: 'pi_1_secret_2' } },
        { status: 'requires_action' },
      ),
    });
    const receipts: Array<string | null> = [];
    server.use(
      http.get(apiUrl('/payment/get/status'), ({ request }) => {
        receipts.push(new URL(request.url).searchParams.get('receipt'));
        return HttpResponse.json(supportResult());
      }),
    );
    fake.stripe.confirmCardPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    const user = userEvent.setup();
    const { router } = renderApp(step('confirm', '?paymentType=1'));
    await user.click(await screen.findByRole('button', { name: '6,600円を支払う' }));

    await waitFor(() => expect(router.location.pathname).toBe(step('complete')));
    expect(fake.stripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_2');
    expect(receipts).toEqual(['rcpt_41']);
    expect(await screen.findByText('ご支援ありがとうございました。')).toBeInTheDocument();
  });
});

describe('payment step 4 for a monthly support', () => {
  const monthlyProject = () =>
    paymentProject({ returns: [paymentReturn({ title: 'サポーターズクラブ', interval: 'month' })] });

  const confirmMonthly = async () => {
    memberAfterStep1();
    serveProject(monthlyProject());
    serveQuote();
    serveLibrary();
    serveCards([card()]);
    const user = userEvent.setup();
    const view = renderApp(step('confirm', '?paymentType=1'));
    await user.click(await screen.findByRole('button', { name: '毎月6,600円の支援を申し込む' }));
    const dialog = await screen.findByRole('dialog', { name: 'お支払いの確定' });
    expect(dialog).toHaveTextContent(PAYMENT_MESSAGES.subscriptionConfirm);
    await user.click(within(dialog).getByRole('button', { name: '確定する' }));
    return { user, ...view };
  };

  it("shows the spec's failure when the monthly support could not be registered", async () => {
    const bodies = answerSupport({ status: 503, body: { error: 'payment_unavailable', message: '決済の登録に失敗しました' } });
    const { router } = await confirmMonthly();

    expect(
      await screen.findByText('お支払い情報の登録に失敗しました。お手数ですが管理者までお問い合わせください'),
    ).toBeInTheDocument();
    expect(screen.queryByText(PAYMENT_MESSAGES.paymentFailed)).not.toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    expect(router.location.pathname).toBe(step('confirm'));
    // The same key may continue the sale: the support record is kept.
    expect(readRecord().lot).toBe(2);
  });

  it('says the member supports this return monthly already, with the way to that support', async () => {
    const message =
      'このリターンはすでに毎月のご支援をいただいています。ご支援の内容は「毎月のご支援」からご確認いただけます。';
    answerSupport({ status: 409, body: { error: 'monthly_running', message } });
    await confirmMonthly();

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ご支援中の毎月のご支援を見る' })).toHaveAttribute(
      'href',
      '/account/#monthly-supports',
    );
  });

  it('says the monthly support is registered after 3-D Secure, although the status does not name it', async () => {
    answerSupport({
      status: 200,
      body: supportResult(
        { nextAction: { type: 'authenticate', clientSecret: 'pi_1_secret_2' }, subscriptionId: 12 },
        { status: 'requires_action', returnTitle: 'サポーターズクラブ' },
      ),
    });
    // As the server: the status of a sale carries no subscription id.
    server.use(
      http.get(apiUrl('/payment/get/status'), () =>
        HttpResponse.json(supportResult({}, { returnTitle: 'サポーターズクラブ' })),
      ),
    );
    fake.stripe.confirmCardPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    const { router } = await confirmMonthly();

    await waitFor(() => expect(router.location.pathname).toBe(step('complete')));
    expect(await screen.findByText('お支払い情報の登録が完了しました。')).toBeInTheDocument();
    expect(screen.queryByText('ご支援ありがとうございました。')).not.toBeInTheDocument();
  });
});

describe('payment step 5', () => {
  const afterSupport = (paymentType: 1 | 2) => {
    storeRecord({ supportType: 'guest', guestEmail: 'guest@example.jp' });
    window.sessionStorage.setItem(
      'payment.receipt',
      JSON.stringify({ receipt: 'rcpt_41', returnKey: `${PROJECT}/${RETURN}`, paymentType }),
    );
    serveProject();
  };

  it('thanks for a card support, read again from the receipt on reload', async () => {
    afterSupport(1);
    server.use(http.get(apiUrl('/payment/get/status'), () => HttpResponse.json(supportResult())));
    renderApp(step('complete'));

    expect(await screen.findByText('ご支援ありがとうございました。')).toBeInTheDocument();
    expect(screen.getByText('お礼のお手紙コース（2口）')).toBeInTheDocument();
    expect(screen.getByText('6,600円（税込）')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'プロジェクトページへ戻る' })).toHaveAttribute('href', `/projects/${PROJECT}/`);
    expect(screen.queryByRole('link', { name: 'マイページへ' })).not.toBeInTheDocument();
    expect(screen.queryByText('上乗せ支援')).toBeNull();
  });

  it('shows the extra amount of a support that had one', async () => {
    afterSupport(1);
    server.use(
      http.get(apiUrl('/payment/get/status'), () =>
        HttpResponse.json(supportResult({}, { extraAmount: 1500, total: 8100 })),
      ),
    );
    renderApp(step('complete'));

    expect(await screen.findByText('上乗せ支援')).toBeInTheDocument();
    expect(screen.getByText('1,500円')).toBeInTheDocument();
    expect(screen.getByText('8,100円（税込）')).toBeInTheDocument();
  });

  it('says a monthly support is registered, also when read again on reload', async () => {
    afterSupport(1);
    serveProject(paymentProject({ returns: [paymentReturn({ title: 'サポーターズクラブ', interval: 'month' })] }));
    // The status call names no subscription (only the placing call does).
    server.use(
      http.get(apiUrl('/payment/get/status'), () => HttpResponse.json(supportResult({}, { returnTitle: 'サポーターズクラブ' }))),
    );
    renderApp(step('complete'));

    expect(await screen.findByText('お支払い情報の登録が完了しました。')).toBeInTheDocument();
    expect(screen.getByText(/毎月のご支援ありがとうございます。/)).toBeInTheDocument();
    expect(screen.getByText('サポーターズクラブ（2口）')).toBeInTheDocument();
    expect(screen.queryByText('ご支援ありがとうございました。')).not.toBeInTheDocument();
  });

  it('shows the bank transfer instructions with the deadline as a date', async () => {
    afterSupport(2);
    server.use(
      http.get(apiUrl('/payment/get/status'), () =>
        HttpResponse.json(supportResult({ bankTransfer }, { status: 'awaiting_bank_transfer', paymentType: 2 })),
      ),
    );
    renderApp(step('complete'));

    const instructions = await screen.findByText('ローカル銀行');
    const list = instructions.closest('dl')!;
    for (const text of ['6,600円', 'テスト支店', '普通', '1234567', 'ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ', 'ABCD1234', '2026年12月1日']) {
      expect(within(list as HTMLElement).getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByText(/メールアドレスにもお送りしました/)).toBeInTheDocument();
    for (const name of ['お振込金額をコピー', '口座番号をコピー', 'お振込人名の前に付ける番号をコピー', 'お振込期限をコピー']) {
      expect(within(list as HTMLElement).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(within(list as HTMLElement).getByText('ABCD1234')).toHaveClass('nowrap');
  });

  it('alerts and shows the Invalid page when the instructions cannot be read', async () => {
    afterSupport(2);
    server.use(
      http.get(apiUrl('/payment/get/status'), () =>
        HttpResponse.json({ error: 'not_found', message: 'お申し込みが見つかりません。' }, { status: 404 }),
      ),
    );
    renderApp(step('complete'));

    expect(await screen.findByRole('alertdialog')).toHaveTextContent('お申し込みが見つかりません。');
    expect(screen.getByText(PAYMENT_MESSAGES.invalidOperation)).toBeInTheDocument();
  });

  it('shows the Invalid page without a stored receipt', async () => {
    storeRecord({ supportType: 'guest' });
    serveProject();
    renderApp(step('complete'));
    expect(await screen.findByText(PAYMENT_MESSAGES.invalidOperation)).toBeInTheDocument();
  });
});

describe('words of the steps', () => {
  it.each([
    ['info', 'ご支援内容の入力', 1, 'ご支援内容'],
    ['method', 'お支払い方法の選択', 2, 'お支払い方法'],
    ['card', 'お支払い情報の入力', 3, 'お支払い情報'],
  ] as const)('titles step %s %s, after its label in the step counter', async (name, title, number, label) => {
    serveProject();
    guestAfterStep1();
    renderApp(step(name));

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    const current = within(screen.getByRole('list', { name: 'お申し込みの手順' })).getByRole('listitem', { current: 'step' });
    expect(current).toHaveTextContent(`${number}${label}`);
    await waitFor(() => expect(document.title).toBe(`${title} | ぐんまクラウドファンディング`));
  });

  it('writes お申し込み as the glossary does in the bank transfer hint', async () => {
    serveProject();
    guestAfterStep1();
    renderApp(step('method'));

    expect(await screen.findByText(/お申し込み後にご案内する口座へお振り込みください/)).toBeInTheDocument();
  });

  it('lets the step labels wrap only between words (お支払い|方法)', async () => {
    serveProject();
    guestAfterStep1();
    renderApp(step('method'));

    const current = await screen.findByRole('listitem', { current: 'step' });
    expect(current.querySelector('.payment-steps__label')!.innerHTML).toBe('お支払い<wbr>方法');
  });

  it('titles the confirm step ご支援内容の確認; a bank transfer applies (申し込む), nothing is paid yet', async () => {
    serveProject();
    guestAfterStep1();
    serveQuote();
    renderApp(step('confirm', '?paymentType=2'));

    expect(await screen.findByRole('button', { name: '申し込む' })).toBeEnabled();
    expect(screen.getByRole('heading', { level: 1, name: 'ご支援内容の確認' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /を支払う/ })).not.toBeInTheDocument();
  });

  it('titles the complete page as a completion and shows the order number', async () => {
    storeRecord({ supportType: 'guest', guestEmail: 'guest@example.jp' });
    window.sessionStorage.setItem(
      'payment.receipt',
      JSON.stringify({ receipt: 'rcpt_41', returnKey: `${PROJECT}/${RETURN}`, paymentType: 2 }),
    );
    serveProject();
    server.use(
      http.get(apiUrl('/payment/get/status'), () =>
        HttpResponse.json(supportResult({ bankTransfer }, { id: 1234, status: 'awaiting_bank_transfer', paymentType: 2 })),
      ),
    );
    renderApp(step('complete'));

    expect(await screen.findByRole('heading', { level: 1, name: 'お申し込み完了' })).toBeInTheDocument();
    // The step's heading is there while the status is still being read: the order number comes with the answer.
    const number = (await screen.findByText('ご注文番号', { selector: 'dt' })).nextElementSibling!;
    expect(number).toHaveTextContent('1234');
    await waitFor(() => expect(document.title).toBe('お申し込み完了 | ぐんまクラウドファンディング'));
  });

  it('does not call a support that failed complete', async () => {
    storeRecord({ supportType: 'guest', guestEmail: 'guest@example.jp' });
    window.sessionStorage.setItem(
      'payment.receipt',
      JSON.stringify({ receipt: 'rcpt_41', returnKey: `${PROJECT}/${RETURN}`, paymentType: 1 }),
    );
    serveProject();
    server.use(http.get(apiUrl('/payment/get/status'), () => HttpResponse.json(supportResult({}, { status: 'failed' }))));
    renderApp(step('complete'));

    expect(await screen.findByRole('heading', { level: 1, name: 'お申し込みが完了しませんでした' })).toBeInTheDocument();
  });
});
