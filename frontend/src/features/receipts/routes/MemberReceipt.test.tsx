import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import { RECEIPT_MESSAGES } from '../components/ReceiptPage';
import { RECEIPT_WORDS } from '../components/ReceiptSheet';
import { saleReceipt, serveReceipt } from '../testing/receipts';

const sheet = () => screen.findByRole('article', { name: /領収書|寄附金受領証明書/ });

describe('a member’s receipt (/account/receipts/:saleId)', () => {
  let print: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    print = vi.fn();
    vi.stubGlobal('print', print);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the receipt of a paid sale: addressee with 様, amount, purpose, date, the tax of each rate and who received it', async () => {
    loginAs();
    serveReceipt('/user/receipts/41');
    renderApp('/account/receipts/41');

    const receipt = await sheet();
    expect(within(receipt).getByRole('heading', { level: 2, name: '領収書' })).toBeInTheDocument();
    expect(within(receipt).getByTestId('receipt-addressee')).toHaveTextContent('群馬 太郎');
    expect(within(receipt).getByText('様')).toBeInTheDocument();
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('￥6,600-');
    expect(within(receipt).getByText('（税込）')).toBeInTheDocument();
    expect(within(receipt).getByText('「前橋ばら園」へのご支援として')).toBeInTheDocument();
    expect(within(receipt).getByText('2026年12月2日')).toBeInTheDocument();
    const rates = within(receipt).getByRole('table', { name: '税率ごとの合計と消費税額' });
    const row = within(rates).getByRole('row', { name: /10%対象/ });
    expect(row).toHaveTextContent('6,600円');
    expect(row).toHaveTextContent('600円');
    expect(within(receipt).getByText('R00000041')).toBeInTheDocument();
    // Not yet issued: a sample, and it says so on paper too.
    expect(within(receipt).getByText(RECEIPT_WORDS.draft)).toBeInTheDocument();
    // No issuer on the project: the operator received it on the owner's behalf, and no registration number line.
    expect(within(receipt).getByText('上毛新聞社')).toBeInTheDocument();
    expect(within(receipt).getByText(RECEIPT_WORDS.onBehalf('前橋ばら園の会'))).toBeInTheDocument();
    expect(within(receipt).queryByText(/登録番号/)).toBeNull();
    expect(screen.getByRole('link', { name: 'お支払い履歴へ戻る' })).toHaveAttribute('href', '/edit/payment-list');
  });

  it('issues with a new addressee, prints, and a second issue is marked 再発行', async () => {
    loginAs();
    const user = userEvent.setup();
    const issues = serveReceipt('/user/receipts/41');
    renderApp('/account/receipts/41');

    const addressee = await screen.findByRole('textbox', { name: '宛名' });
    expect(addressee).toHaveValue('群馬 太郎');
    await user.clear(addressee);
    await user.type(addressee, '株式会社上毛');
    await user.click(screen.getByRole('button', { name: '領収書を発行する' }));

    expect(await screen.findByText(RECEIPT_MESSAGES.issued)).toBeInTheDocument();
    const receipt = await sheet();
    expect(within(receipt).getByTestId('receipt-addressee')).toHaveTextContent('株式会社上毛');
    expect(within(receipt).getByText('2026年12月3日')).toBeInTheDocument();
    expect(within(receipt).queryByText(RECEIPT_WORDS.draft)).toBeNull();
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(screen.getByText(RECEIPT_MESSAGES.reissueNote(1))).toBeInTheDocument();

    // Emptied: the member's own name, and this time a reissue.
    await user.clear(screen.getByRole('textbox', { name: '宛名' }));
    await user.click(screen.getByRole('button', { name: '領収書を発行する' }));

    expect(await within(receipt).findByRole('heading', { level: 2, name: '領収書（再発行）' })).toBeInTheDocument();
    expect(within(receipt).getByText('R00000041-2')).toBeInTheDocument();
    expect(within(receipt).getByTestId('receipt-addressee')).toHaveTextContent('群馬 太郎');
    await waitFor(() => expect(print).toHaveBeenCalledTimes(2));
    expect(issues).toEqual([{ addressee: '株式会社上毛' }, { addressee: null }]);
  });

  it('refuses an addressee over 60 characters before sending, with the server’s message', async () => {
    loginAs();
    const user = userEvent.setup();
    const issues = serveReceipt('/user/receipts/41');
    renderApp('/account/receipts/41');

    const addressee = await screen.findByRole('textbox', { name: '宛名' });
    await user.clear(addressee);
    await user.click(addressee);
    await user.paste('宛'.repeat(61));
    await user.tab();

    expect(await screen.findByText('宛名は60文字以内で入力してください。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '領収書を発行する' })).toBeDisabled();
    expect(issues).toEqual([]);
    expect(print).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal under the addressee and prints nothing', async () => {
    loginAs();
    const user = userEvent.setup();
    server.use(
      http.get(apiUrl('/user/receipts/41'), () => HttpResponse.json(saleReceipt())),
      http.post(apiUrl('/user/receipts/41/issue'), () =>
        HttpResponse.json(
          { error: 'validation_failed', message: '宛名に使用できない文字が含まれています。', field: 'addressee' },
          { status: 400 },
        ),
      ),
    );
    renderApp('/account/receipts/41');

    await user.click(await screen.findByRole('button', { name: '領収書を発行する' }));

    expect(await screen.findByText('宛名に使用できない文字が含まれています。')).toBeInTheDocument();
    expect(print).not.toHaveBeenCalled();
  });

  it('says the receipt cannot be shown when the sale is not the member’s, unknown or not paid (404)', async () => {
    loginAs();
    server.use(
      http.get(apiUrl('/user/receipts/42'), () =>
        HttpResponse.json({ error: 'not_found', message: 'お探しのページが見つかりませんでした。' }, { status: 404 }),
      ),
    );
    renderApp('/account/receipts/42');

    expect(await screen.findByText(RECEIPT_MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.getByText(RECEIPT_MESSAGES.notFoundHelp)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '領収書を発行する' })).toBeNull();
  });

  it('offers to load again after another failure', async () => {
    loginAs();
    server.use(
      http.get(apiUrl('/user/receipts/41'), () =>
        HttpResponse.json({ error: 'internal', message: 'エラーが発生しました。' }, { status: 500 }),
      ),
    );
    renderApp('/account/receipts/41');

    expect(await screen.findByText('エラーが発生しました。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '再読み込みする' })).toBeInTheDocument();
  });

  it('prints a donation as a donation receipt without tax, and a registered issuer with its number', async () => {
    loginAs();
    serveReceipt(
      '/user/receipts/41',
      saleReceipt({
        kind: 'donation',
        title: '寄附金受領証明書',
        purpose: '「こども食堂」への寄附として',
        lines: [{ description: 'こども食堂（寄付 1,000円）', lots: 3, amount: 3000, rateLabel: '対象外' }],
        rates: [{ label: '対象外', ratePercent: null, total: 3000, tax: 0 }],
        amount: 3000,
        paidTotal: 3000,
        issuer: { name: '一般社団法人こども食堂', registrationNumber: 'T1234567890123', onBehalfOf: null },
        qualifiedInvoice: true,
      }),
    );
    renderApp('/account/receipts/41');

    const receipt = await sheet();
    expect(within(receipt).getByRole('heading', { level: 2, name: '寄附金受領証明書' })).toBeInTheDocument();
    expect(within(receipt).getByText('（消費税対象外）')).toBeInTheDocument();
    expect(within(receipt).getByText(RECEIPT_WORDS.donationReceived)).toBeInTheDocument();
    const rates = within(receipt).getByRole('table', { name: '税率ごとの合計と消費税額' });
    expect(within(rates).getByRole('row', { name: /対象外/ })).toHaveTextContent('—');
    expect(within(receipt).getByText('登録番号 T1234567890123')).toBeInTheDocument();
  });

  it('shows what was kept after a partial refund, and says so', async () => {
    loginAs();
    serveReceipt(
      '/user/receipts/41',
      saleReceipt({
        amount: 4400,
        refunded: 2200,
        refundNote: '一部返金済みです。返金後の金額を記載しています。',
        rates: [{ label: '10%対象', ratePercent: 10, total: 4400, tax: 400 }],
      }),
    );
    renderApp('/account/receipts/41');

    const receipt = await sheet();
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('￥4,400-');
    expect(
      within(receipt).getByText('一部返金済みです。返金後の金額を記載しています。（お支払い金額 6,600円、返金額 2,200円）'),
    ).toBeInTheDocument();
  });

  it('prints an extra amount (上乗せ支援) as its own line outside consumption tax, with no lots', async () => {
    loginAs();
    serveReceipt(
      '/user/receipts/41',
      saleReceipt({
        lines: [
          { description: '前橋ばら園（お礼のメール）', lots: 2, amount: 6600, rateLabel: '10%対象' },
          { description: '上乗せ支援', lots: 0, amount: 1500, rateLabel: '対象外' },
        ],
        rates: [
          { label: '10%対象', ratePercent: 10, total: 6600, tax: 600 },
          { label: '対象外', ratePercent: null, total: 1500, tax: 0 },
        ],
        amount: 8100,
        paidTotal: 8100,
      }),
    );
    renderApp('/account/receipts/41');

    const receipt = await sheet();
    const lines = within(receipt).getByRole('table', { name: '内訳' });
    const extra = within(lines).getByRole('row', { name: /上乗せ支援/ });
    expect(extra).toHaveTextContent('（対象外）');
    expect(extra).toHaveTextContent('—');
    expect(extra).toHaveTextContent('1,500円');
    expect(within(lines).getByRole('row', { name: /お礼のメール/ })).toHaveTextContent('2口');
  });

  it('treats an address that names no sale as not found', async () => {
    loginAs();
    renderApp('/account/receipts/abc');

    expect(await screen.findByRole('heading', { level: 1 })).not.toHaveTextContent('領収書');
  });
});
