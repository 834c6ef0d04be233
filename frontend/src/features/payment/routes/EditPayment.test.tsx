import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { Subscription } from '@/app/session/subscriptionsApi';
import { CARD_MESSAGES } from '../cards/savedCards';
import { PAYMENT_MESSAGES } from '../messages';
import {
  SETUP_SECRET,
  answerCardSetup,
  card,
  fakeStripe,
  serveCards,
  serveLibrary,
  setUpIntent,
  subscription,
} from '../testing/fixtures';

const fake = fakeStripe();

beforeEach(() => {
  fake.stripe.confirmCardSetup.mockReset();
});

const visa = card({ id: 'card_visa', brand: 'Visa', last4: '4242', expMonth: 3, expYear: 2031 });
const jcb = card({ id: 'card_jcb', brand: 'JCB', last4: '0005', expMonth: 12, expYear: 2030 });

const serveSubscriptions = (subscriptions: Subscription[]): void => {
  server.use(http.get(apiUrl('/stripe/subscription/get/list'), () => HttpResponse.json({ subscriptions })));
};

const openScreen = async () => {
  renderApp('/edit/payment');
  return screen.findByRole('heading', { level: 1, name: 'お支払い方法の管理' });
};

describe('the saved cards screen', () => {
  it('lists the cards with brand, last digits and MM/YY expiry, the default marked and chosen', async () => {
    loginAs({ customerId: 'cus_1' });
    serveCards([visa, jcb], 'card_jcb');
    serveSubscriptions([]);
    await openScreen();

    const group = await screen.findByRole('group', { name: '登録済みのクレジットカード' });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(2);
    expect(within(group).getByRole('radio', { name: 'Visa 末尾4242 有効期限 03/31' })).not.toBeChecked();
    expect(within(group).getByRole('radio', { name: 'JCB 末尾0005 有効期限 12/30 デフォルト' })).toBeChecked();
    // The default is already the default.
    expect(screen.getByRole('button', { name: '選択したカードをデフォルトに設定する' })).toBeDisabled();
    await userEvent.setup().click(within(group).getByRole('radio', { name: /Visa 末尾4242/ }));
    expect(screen.getByRole('button', { name: '選択したカードをデフォルトに設定する' })).toBeEnabled();
  });

  it('shows the empty state and only the register button to a member without a card', async () => {
    loginAs();
    serveCards([]);
    await openScreen();

    expect(await screen.findByText(CARD_MESSAGES.empty)).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '選択したカードを削除する' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '新しいカードを登録する' })).toBeEnabled();
  });

  it('offers a retry when the cards cannot be loaded', async () => {
    loginAs();
    server.use(
      http.get(apiUrl('/stripe/customer/get/cards'), () =>
        HttpResponse.json({ error: 'payment_unavailable', message: 'お支払い情報の登録に失敗しました' }, { status: 503 }),
      ),
    );
    await openScreen();

    expect(await screen.findByRole('alert')).toHaveTextContent('お支払い情報の登録に失敗しました');
    serveCards([visa]);
    serveSubscriptions([]);
    await userEvent.setup().click(screen.getByRole('button', { name: '再読み込みする' }));
    expect(await screen.findByRole('radio', { name: /Visa 末尾4242/ })).toBeChecked();
  });

  it('sets another card as the default, and says so when that fails', async () => {
    loginAs({ customerId: 'cus_1' });
    serveCards([visa, jcb], 'card_visa');
    serveSubscriptions([]);
    const calls = answerPost('/stripe/customer/set/changeDefaultCard', {
      status: 503,
      body: { error: 'payment_unavailable', message: 'x' },
    });
    const user = userEvent.setup();
    await openScreen();
    await user.click(await screen.findByRole('radio', { name: /JCB 末尾0005/ }));
    await user.click(screen.getByRole('button', { name: '選択したカードをデフォルトに設定する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(CARD_MESSAGES.defaultFailed);
    expect(calls).toEqual([{ card_id: 'card_jcb' }]);

    answerPost('/stripe/customer/set/changeDefaultCard', { data: { cards: [visa, jcb], default: 'card_jcb' } });
    await user.click(screen.getByRole('button', { name: '選択したカードをデフォルトに設定する' }));
    expect(await screen.findByText(CARD_MESSAGES.defaultChanged)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'JCB 末尾0005 有効期限 12/30 デフォルト' })).toBeChecked();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks before deleting, naming the card, then deletes it', async () => {
    loginAs({ customerId: 'cus_1' });
    serveCards([visa, jcb], 'card_visa');
    serveSubscriptions([]);
    const user = userEvent.setup();
    await openScreen();
    await user.click(await screen.findByRole('radio', { name: /JCB 末尾0005/ }));
    await user.click(screen.getByRole('button', { name: '選択したカードを削除する' }));

    const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの削除' });
    expect(dialog).toHaveTextContent(CARD_MESSAGES.deleteConfirm);
    expect(dialog).toHaveTextContent('JCB 末尾0005（有効期限 12/30）');
    expect(dialog).not.toHaveTextContent('毎月のご支援');

    // Cancelling deletes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const deleted = answerPost('/stripe/customer/set/deleteCard', { status: 503, body: { error: 'payment_unavailable', message: 'x' } });
    await user.click(screen.getByRole('button', { name: '選択したカードを削除する' }));
    const again = await screen.findByRole('dialog', { name: 'クレジットカードの削除' });
    await user.click(within(again).getByRole('button', { name: '削除する' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent(CARD_MESSAGES.deleteFailed);
    expect(deleted).toEqual([{ card_id: 'card_jcb' }]);

    answerPost('/stripe/customer/set/deleteCard', { data: { cards: [visa], default: 'card_visa' } });
    await user.click(within(again).getByRole('button', { name: '削除する' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(CARD_MESSAGES.deleted)).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    expect(screen.queryByText(/JCB/)).not.toBeInTheDocument();
  });

  it('warns that a monthly support moves to the next default card', async () => {
    loginAs({ customerId: 'cus_1' });
    serveCards([visa, jcb], 'card_visa');
    serveSubscriptions([subscription(), subscription({ id: 13, projectTitle: '終わった支援', status: 'ended' })]);
    const user = userEvent.setup();
    await openScreen();
    await user.click(await screen.findByRole('button', { name: '選択したカードを削除する' }));

    const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの削除' });
    expect(dialog).toHaveTextContent('Visa 末尾4242（有効期限 03/31）');
    expect(dialog).toHaveTextContent(
      'このカードは毎月のご支援「前橋の夏祭りを復活させたい」のお支払いに使われています。削除すると、以降のお支払いは JCB 末尾0005 のカードに切り替わります。',
    );
    expect(dialog).not.toHaveTextContent('終わった支援');
  });

  it('warns that a monthly support stops when its card is the last one', async () => {
    loginAs({ customerId: 'cus_1' });
    serveCards([visa], 'card_visa');
    serveSubscriptions([subscription()]);
    const user = userEvent.setup();
    await openScreen();
    await user.click(await screen.findByRole('button', { name: '選択したカードを削除する' }));

    const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの削除' });
    expect(dialog).toHaveTextContent(CARD_MESSAGES.stopsAtPeriodEnd);
  });

  it('warns that the monthly supports could not be checked, and checks again on request', async () => {
    loginAs({ customerId: 'cus_1' });
    serveCards([visa], 'card_visa');
    server.use(
      http.get(apiUrl('/stripe/subscription/get/list'), () =>
        HttpResponse.json({ error: 'payment_unavailable', message: 'x' }, { status: 503 }),
      ),
    );
    const user = userEvent.setup();
    await openScreen();
    await user.click(await screen.findByRole('button', { name: '選択したカードを削除する' }));

    const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの削除' });
    expect(dialog).toHaveTextContent(CARD_MESSAGES.deleteConfirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      '毎月のご支援の確認ができませんでした。このカードで毎月のご支援をお支払いの場合、カードを削除すると次回の決済ができなくなります。',
    );
    // Told, the member may still delete the card.
    expect(within(dialog).getByRole('button', { name: '削除する' })).toBeEnabled();

    serveSubscriptions([subscription()]);
    await user.click(within(dialog).getByRole('button', { name: '毎月のご支援をもう一度確認する' }));
    expect(await within(dialog).findByText(/このカードは毎月のご支援「前橋の夏祭りを復活させたい」/)).toHaveTextContent(
      CARD_MESSAGES.stopsAtPeriodEnd,
    );
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('waits for the monthly supports before a card can be deleted', async () => {
    loginAs({ customerId: 'cus_1' });
    serveCards([visa], 'card_visa');
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get(apiUrl('/stripe/subscription/get/list'), async () => {
        await answered;
        return HttpResponse.json({ subscriptions: [subscription()] });
      }),
    );
    const user = userEvent.setup();
    await openScreen();
    await user.click(await screen.findByRole('button', { name: '選択したカードを削除する' }));

    const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの削除' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('毎月のご支援を確認しています…');
    expect(within(dialog).getByRole('button', { name: '削除する' })).toBeDisabled();

    answer();
    expect(await within(dialog).findByText(/このカードは毎月のご支援「前橋の夏祭りを復活させたい」/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '削除する' })).toBeEnabled();
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('registering a card on the cards screen', () => {
  const openRegister = async () => {
    const user = userEvent.setup();
    await openScreen();
    await user.click(await screen.findByRole('button', { name: '新しいカードを登録する' }));
    const dialog = await screen.findByRole('dialog', { name: 'クレジットカードの登録' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'カード番号' })).toBeInTheDocument());
    return { user, dialog };
  };

  it('enables the button only for a complete card, then closes and says it is registered', async () => {
    loginAs();
    serveCards([]);
    serveLibrary();
    const registered = answerPost('/stripe/customer/set/updater', { card: visa, data: { cards: [visa], default: 'card_visa' } });
    const setups = answerCardSetup();
    fake.stripe.confirmCardSetup.mockResolvedValue(setUpIntent('pm_visa'));
    // The first card made a customer: the session is checked again.
    loginAs({ customerId: 'cus_new' });
    server.use(http.get(apiUrl('/user/loginCheck'), () => HttpResponse.json({ data: { flag: 1, userId: 7, customer: null, isAdmin: false } }), { once: true }));
    serveSubscriptions([]);
    const { user, dialog } = await openRegister();
    const register = within(dialog).getByRole('button', { name: '登録する' });

    expect(register).toBeDisabled();
    act(() => fake.type({ number: '4242424242424242', cvc: '' }));
    expect(register).toBeDisabled();
    act(() => fake.type({ number: '4242424242424241' }));
    expect(register).toBeDisabled();
    expect(within(dialog).getByText('カード番号が無効です。')).toBeInTheDocument();
    act(() => fake.type({ number: '4242424242424242', expMonth: '13' }));
    expect(within(dialog).getByText('有効期限が無効です。')).toBeInTheDocument();
    act(() => fake.type({ number: '4242424242424242' }));
    expect(within(dialog).queryByText(/無効です/)).not.toBeInTheDocument();
    expect(register).toBeEnabled();

    await user.click(register);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // One set-up, started without any card details; Stripe.js confirms it with the card element.
    expect(setups).toEqual(['']);
    expect(fake.stripe.confirmCardSetup).toHaveBeenCalledTimes(1);
    expect(fake.stripe.confirmCardSetup).toHaveBeenCalledWith(SETUP_SECRET, { payment_method: { card: fake.element } });
    expect(registered).toEqual([{ source: 'pm_visa', isCardRegist: true }]);
    expect(await screen.findByText(CARD_MESSAGES.registered)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Visa 末尾4242 有効期限 03/31 デフォルト' })).toBeChecked();
  });

  it("shows the provider's set-up error beside the field and stops", async () => {
    loginAs();
    serveCards([]);
    serveLibrary();
    const registered = answerPost('/stripe/customer/set/updater', { card: visa, data: { cards: [visa], default: 'card_visa' } });
    answerCardSetup();
    fake.stripe.confirmCardSetup.mockResolvedValue({
      error: { type: 'card_error', code: 'invalid_cvc', param: 'cvc', message: 'セキュリティコードが正しくありません。' },
    });
    const { user, dialog } = await openRegister();
    act(() => fake.type({ number: '4242424242424242' }));
    await user.click(within(dialog).getByRole('button', { name: '登録する' }));

    const area = await within(dialog).findByText('セキュリティコードが正しくありません。');
    expect(area).toHaveAttribute('data-field', 'cvc');
    expect(registered).toEqual([]);
  });

  it('shows a card refused during the set-up in the card-errors area and registers nothing', async () => {
    loginAs();
    serveCards([]);
    serveLibrary();
    const registered = answerPost('/stripe/customer/set/updater', { card: visa, data: { cards: [visa], default: 'card_visa' } });
    answerCardSetup();
    fake.stripe.confirmCardSetup.mockResolvedValue({
      error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    const { user, dialog } = await openRegister();
    act(() => fake.type({ number: '4000000000000002' }));
    await user.click(within(dialog).getByRole('button', { name: '登録する' }));

    // Our words for a decline (as when a payment is declined), in the card-errors area.
    const refusal = await within(dialog).findByText(PAYMENT_MESSAGES.cardDeclined);
    expect(refusal).toHaveAttribute('data-field', 'card');
    expect(refusal.closest('.payment-card-errors')).not.toBeNull();
    expect(fake.stripe.confirmCardSetup).toHaveBeenCalledWith(SETUP_SECRET, { payment_method: { card: fake.element } });
    expect(registered).toEqual([]);
    // The modal stays open for another card, and nothing says a card was registered.
    expect(screen.getByRole('dialog', { name: 'クレジットカードの登録' })).toBeInTheDocument();
    expect(screen.queryByText(CARD_MESSAGES.registered)).not.toBeInTheDocument();
  });

  it("shows a card the provider refused in the card-errors area, and the spec's failures otherwise", async () => {
    loginAs();
    serveCards([]);
    serveLibrary();
    answerCardSetup();
    fake.stripe.confirmCardSetup.mockResolvedValue(setUpIntent('pm_x'));
    answerPost('/stripe/customer/set/updater', {
      status: 402,
      body: { error: 'card_declined', message: PAYMENT_MESSAGES.cardDeclined },
    });
    const { user, dialog } = await openRegister();
    act(() => fake.type({ number: '4000000000000002' }));
    await user.click(within(dialog).getByRole('button', { name: '登録する' }));
    expect(await within(dialog).findByText(PAYMENT_MESSAGES.cardDeclined)).toHaveAttribute('data-field', 'card');

    answerPost('/stripe/customer/set/updater', { status: 503, body: { error: 'payment_unavailable', message: 'x' } });
    await user.click(within(dialog).getByRole('button', { name: '登録する' }));
    expect(await within(dialog).findByText(PAYMENT_MESSAGES.cardRegisterFailed)).toBeInTheDocument();
    expect(screen.queryByText(CARD_MESSAGES.registered)).not.toBeInTheDocument();
  });
});
