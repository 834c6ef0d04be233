import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { RECEIPT_MESSAGES } from '../components/ReceiptPage';
import { serveReceipt } from '../testing/receipts';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzYWxlIjo0MX0.c2lnbmF0dXJl';

describe('the receipt of a paid mail’s link (/receipt/:token)', () => {
  let print: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    print = vi.fn();
    vi.stubGlobal('print', print);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('opens without logging in and issues with the addressee typed', async () => {
    const user = userEvent.setup();
    const issues = serveReceipt(`/receipts/${TOKEN}`);
    renderApp(`/receipt/${TOKEN}`);

    const receipt = await screen.findByRole('article', { name: '領収書' });
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('￥6,600-');
    const addressee = screen.getByRole('textbox', { name: '宛名' });
    await user.clear(addressee);
    await user.type(addressee, '上州商事株式会社');
    await user.click(screen.getByRole('button', { name: '領収書を発行する' }));

    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(within(receipt).getByTestId('receipt-addressee')).toHaveTextContent('上州商事株式会社');
    expect(issues).toEqual([{ addressee: '上州商事株式会社' }]);
    // A guest has no payment history to go back to.
    expect(screen.queryByRole('link', { name: 'お支払い履歴へ戻る' })).toBeNull();
  });

  it('says the receipt cannot be shown for a link that is not genuine or has expired', async () => {
    server.use(
      http.get(apiUrl('/receipts/forged'), () =>
        HttpResponse.json({ error: 'not_found', message: 'お探しのページが見つかりませんでした。' }, { status: 404 }),
      ),
    );
    renderApp('/receipt/forged');

    expect(await screen.findByText(RECEIPT_MESSAGES.notFound)).toBeInTheDocument();
  });
});
