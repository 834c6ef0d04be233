import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs, TEST_TOKEN } from '@/testing/session';
import type { Statement } from './payouts/types';
import { figures, statement } from './testing/payouts';

const SITE = 'ぐんまクラウドファンディング';

const serveList = (payouts: Statement[]) =>
  server.use(http.get(apiUrl('/admin/payouts'), () => HttpResponse.json({ payouts })));

const KIRYU = statement();
const TOMIOKA = statement({
  projectId: 5,
  title: '富岡製糸場の見学路を整える',
  slug: 'tomioka-silk',
  periodEnd: '2026-10-31',
  payoutDate: '2026-12-03',
  card: 100_000,
  bank: 0,
  seq: 2,
  figures: figures({
    confirmed: 100_000,
    platformFee: 20_000,
    platformFeeTax: 1_818,
    transferFee: 0,
    carriedOver: 85_000,
    payout: 0,
    owedByOwner: 5_000,
  }),
});
const SETTLED = statement({
  projectId: 7,
  title: '草津の湯畑に灯りを',
  slug: 'kusatsu-light',
  status: 'settled',
  statusLabel: '精算済み',
});

describe('the payouts list (/admin/payouts/)', () => {
  it('lists each statement with its dates, figures and state, linking to it', async () => {
    loginAs({ isAdmin: true });
    serveList([KIRYU, SETTLED]);
    renderApp('/admin/payouts/');

    expect(await screen.findByRole('heading', { level: 1, name: '精算' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`精算 | ${SITE}`));
    const region = await screen.findByRole('region', { name: '精算の一覧（横にスクロールできます）' });
    expect(region).toHaveAttribute('tabindex', '0');
    const rows = within(region).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'プロジェクト', '募集終了日', '支払予定日', '確定金額', '手数料', '今回支払額', '状態',
    ]);
    expect(rows).toHaveLength(3);

    const kiryu = within(region).getByRole('row', { name: /桐生織/ });
    expect(within(kiryu).getByRole('link', { name: '桐生織 機場（はたば）再生プロジェクト' })).toHaveAttribute(
      'href',
      '/admin/payouts/3/',
    );
    expect(within(kiryu).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '2026年11月18日', '2027年1月6日', '370,000円', '74,000円', '295,340円', '未精算',
    ]);
    const settled = within(region).getByRole('row', { name: /草津の湯畑に灯りを/ });
    expect(within(settled).getByText('精算済み')).toBeInTheDocument();
  });

  it('adds the 返還請求額 column when an owner owes something back', async () => {
    loginAs({ isAdmin: true });
    serveList([TOMIOKA, KIRYU]);
    renderApp('/admin/payouts/');

    const region = await screen.findByRole('region', { name: '精算の一覧（横にスクロールできます）' });
    const header = within(region).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(header).toContain('返還請求額');
    const tomioka = within(region).getByRole('row', { name: /富岡製糸場/ });
    expect(within(tomioka).getByText('5,000円')).toBeInTheDocument();
    const kiryu = within(region).getByRole('row', { name: /桐生織/ });
    expect(within(kiryu).getByText('なし')).toHaveClass('visually-hidden');
  });

  it('says when no project has been decided successful yet', async () => {
    loginAs({ isAdmin: true });
    serveList([]);
    renderApp('/admin/payouts/');

    expect(await screen.findByText('精算の対象となる成立プロジェクトはまだありません。')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers a retry when the list cannot be read', async () => {
    loginAs({ isAdmin: true });
    server.use(
      http.get(apiUrl('/admin/payouts'), () =>
        HttpResponse.json({ error: 'internal_error', message: 'エラーが発生しました。' }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/admin/payouts/');

    expect(await screen.findByRole('alert')).toHaveTextContent('エラーが発生しました。');
    serveList([KIRYU]);
    await user.click(screen.getByRole('button', { name: '再読み込みする' }));
    expect(await screen.findByRole('row', { name: /桐生織/ })).toBeInTheDocument();
  });

  it('is Not Found to a member who is not an administrator', async () => {
    loginAs({ isAdmin: false });
    renderApp('/admin/payouts/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });

  describe('the CSV download', () => {
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:payouts');
    const revokeObjectURL = vi.fn();

    beforeEach(() => {
      createObjectURL.mockClear();
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    });

    afterEach(() => {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    });

    it('fetches the export with the administrator’s token and saves it as payouts.csv', async () => {
      loginAs({ isAdmin: true });
      serveList([KIRYU]);
      const csv = '\uFEFF"プロジェクト","今回支払額"\r\n"桐生織 機場（はたば）再生プロジェクト","295340"\r\n';
      const authorizations: (string | null)[] = [];
      server.use(
        http.get(apiUrl('/admin/payouts/export.csv'), ({ request }) => {
          authorizations.push(request.headers.get('Authorization'));
          return new HttpResponse(csv, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
        }),
      );
      const clicked: { href: string; download: string }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push({ href: this.href, download: this.download });
      });
      const user = userEvent.setup();
      renderApp('/admin/payouts/');

      await screen.findByRole('row', { name: /桐生織/ });
      await user.click(screen.getByRole('button', { name: 'CSVをダウンロード' }));

      await waitFor(() => expect(clicked).toEqual([{ href: 'blob:payouts', download: 'payouts.csv' }]));
      expect(authorizations).toEqual([`Bearer ${TEST_TOKEN}`]);
      const saved = createObjectURL.mock.calls[0]?.[0];
      expect(saved).toBeDefined();
      // The bytes as sent, byte order mark included (Excel reads UTF-8 by it).
      expect(Array.from(new Uint8Array(await saved!.arrayBuffer()))).toEqual(Array.from(new TextEncoder().encode(csv)));
    });

    it('says why when the export fails', async () => {
      loginAs({ isAdmin: true });
      serveList([KIRYU]);
      server.use(
        http.get(apiUrl('/admin/payouts/export.csv'), () =>
          HttpResponse.json({ error: 'internal_error', message: 'エラーが発生しました。' }, { status: 500 }),
        ),
      );
      const user = userEvent.setup();
      renderApp('/admin/payouts/');

      await screen.findByRole('row', { name: /桐生織/ });
      await user.click(screen.getByRole('button', { name: 'CSVをダウンロード' }));

      expect(await screen.findByRole('alert')).toHaveTextContent('エラーが発生しました。');
      expect(createObjectURL).not.toHaveBeenCalled();
    });
  });
});
