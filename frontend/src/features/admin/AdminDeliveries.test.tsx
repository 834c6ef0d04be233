import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { Delivery, DeliveryList, MarkDeliveriesInput } from './api/deliveriesApi';

const SITE = 'ぐんまクラウドファンディング';

const delivery = (overrides: Partial<Delivery> = {}): Delivery => ({
  saleId: 101,
  userId: 7,
  returnId: 3,
  returnTitle: 'ばらの苗セット',
  lot: 2,
  createdAt: '2026-11-20T09:05:00+09:00',
  displayname: '上州 花子',
  email: 'hanako@example.jp',
  address: {
    name: '上州 花子',
    telNumber: '0272000000',
    zip: '3710023',
    pref: '群馬県',
    city: '前橋市',
    address: '本町1-2-3',
    building: 'ローズビル101',
  },
  additional: { label: 'お名前の刻印', value: 'HANAKO' },
  total: 6600,
  refundedAmount: 0,
  paymentType: 1,
  paymentLabel: '支払い済み',
  delivery: { state: 'unshipped', label: '未発送', shippedOn: null, note: null },
  ...overrides,
});

const list = (deliveries: Delivery[], overrides: Partial<DeliveryList> = {}): DeliveryList => ({
  project: { id: 12, title: '前橋ばら園 花壇よみがえりプロジェクト' },
  returns: [
    { id: 3, title: 'ばらの苗セット', toDeliver: 2, shipped: 0 },
    { id: 4, title: 'お礼のメール', toDeliver: 5, shipped: 5 },
  ],
  deliveries,
  total: deliveries.length,
  page: 1,
  perPage: 50,
  ...overrides,
});

/** Serves the list and records each request's query. */
const serveList = (answer: (query: URLSearchParams) => DeliveryList) => {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(apiUrl('/admin/projects/:id/deliveries'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      return HttpResponse.json(answer(query));
    }),
  );
  return queries;
};

const table = () => screen.findByRole('region', { name: '発送の一覧（横にスクロールできます）' });

describe('the delivery list of a project (/admin/projects/:id/deliveries)', () => {
  it('lists who must receive what: return, lots, name, e-mail, address, answer, payment and state', async () => {
    loginAs({ isAdmin: true });
    serveList(() => list([delivery()]));
    renderApp('/admin/projects/12/deliveries');

    expect(await screen.findByRole('heading', { level: 1, name: 'リターンの発送' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`リターンの発送 | ${SITE}`));
    expect(screen.getByText('前橋ばら園 花壇よみがえりプロジェクト')).toBeInTheDocument();
    const region = await table();
    const [head, row] = within(region).getAllByRole('row');
    expect(within(head!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      '', '支援ID', '支援日', 'リターン・口数', '表示名・メール', 'お届け先', '追加質問の回答', '支払い', '発送状況', '操作',
    ]);
    for (const text of ['ばらの苗セット', '×2口', 'hanako@example.jp', '〒3710023', '群馬県前橋市本町1-2-3 ローズビル101', 'お名前の刻印', 'HANAKO', '支払い済み', '6,600円', '未発送']) {
      expect(within(row!).getByText(text)).toBeInTheDocument();
    }
    expect(within(row!).getByRole('checkbox', { name: '上州 花子さんの支援（支援ID 101）を選択' })).not.toBeChecked();
    expect(screen.getByText('1件・1 / 1ページ')).toBeInTheDocument();
  });

  it('filters by return and by state, from the first page', async () => {
    loginAs({ isAdmin: true });
    const queries = serveList(() => list([delivery()]));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/deliveries');
    await table();

    await user.selectOptions(screen.getByLabelText('リターン'), 'ばらの苗セット（発送済み 0/2件）');
    await user.selectOptions(screen.getByLabelText('発送状況'), '未発送');

    await waitFor(() => expect(queries.at(-1)?.toString()).toBe('state=unshipped&returnId=3&page=1'));
    expect(queries[0]?.toString()).toBe('state=all&page=1');
  });

  it('says when nothing matches', async () => {
    loginAs({ isAdmin: true });
    serveList(() => list([]));
    renderApp('/admin/projects/12/deliveries');

    expect(await screen.findByText('条件に合う支援はありません。')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: '発送の一覧（横にスクロールできます）' })).not.toBeInTheDocument();
  });

  it('offers a retry when the list cannot be read, and a not-found page for an unknown project', async () => {
    loginAs({ isAdmin: true });
    server.use(
      http.get(apiUrl('/admin/projects/12/deliveries'), () =>
        HttpResponse.json({ error: 'internal_error', message: 'エラーが発生しました。' }, { status: 500 }),
      ),
      http.get(apiUrl('/admin/projects/99/deliveries'), () =>
        HttpResponse.json({ error: 'not_found', message: '見つかりません。' }, { status: 404 }),
      ),
    );
    const first = renderApp('/admin/projects/12/deliveries');
    expect(await screen.findByText('エラーが発生しました。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '再読み込みする' })).toBeInTheDocument();
    first.unmount();

    renderApp('/admin/projects/99/deliveries');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('marks the selected sales shipped with a day and a tracking note, and says what it did', async () => {
    loginAs({ isAdmin: true });
    let shipped = false;
    serveList(() =>
      list([
        delivery(),
        delivery({ saleId: 102, displayname: null, email: 'jiro@example.jp', address: null, additional: null }),
      ].map((d) => (shipped ? { ...d, delivery: { state: 'shipped' as const, label: '発送済み', shippedOn: '2026-11-27', note: 'ヤマト 1234' } } : d))),
    );
    const bodies = answerPost<MarkDeliveriesInput>('/admin/projects/12/deliveries', { changed: 2, unchanged: 0, mailed: 2 });
    const user = userEvent.setup();
    renderApp('/admin/projects/12/deliveries');
    await table();
    const bulk = screen.getByRole('button', { name: '選択した0件を発送済みにする' });
    expect(bulk).toBeDisabled();

    await user.click(screen.getByRole('checkbox', { name: 'このページの支援をすべて選択' }));
    await user.click(screen.getByRole('button', { name: '選択した2件を発送済みにする' }));
    const dialog = screen.getByRole('dialog', { name: '発送済みにする' });
    expect(dialog).toHaveTextContent('選択した2件を発送済みにします。');
    const day = within(dialog).getByLabelText('発送日');
    await user.clear(day);
    await user.type(day, '2026-11-27');
    await user.type(within(dialog).getByLabelText('発送メモ・追跡番号（任意）'), ' ヤマト 1234 ');
    shipped = true;
    await user.click(within(dialog).getByRole('button', { name: '発送済みとして登録する' }));

    expect(await screen.findByText('2件を発送済みにしました。お知らせメールを2件送信します。')).toBeInTheDocument();
    expect(bodies).toEqual([{ saleIds: [101, 102], state: 'shipped', shippedOn: '2026-11-27', note: 'ヤマト 1234' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const region = await table();
    await waitFor(() => expect(within(region).getAllByText('発送済み')).toHaveLength(2));
    expect(within(region).getAllByText('ヤマト 1234')).toHaveLength(2);
  });

  it('shows the server’s message under the field it refused', async () => {
    loginAs({ isAdmin: true });
    serveList(() => list([delivery()]));
    answerPost('/admin/projects/12/deliveries', {
      status: 400,
      body: {
        error: 'validation_failed',
        message: '発送日に未来の日付は指定できません。',
        field: 'shippedOn',
        errors: [{ field: 'shippedOn', message: '発送日に未来の日付は指定できません。' }],
      },
    });
    const user = userEvent.setup();
    renderApp('/admin/projects/12/deliveries');
    await table();

    await user.click(screen.getByRole('button', { name: '上州 花子さんの支援（支援ID 101）を発送済みにする' }));
    const dialog = screen.getByRole('dialog', { name: '発送済みにする' });
    expect(dialog).toHaveTextContent('上州 花子さん（支援ID 101）を発送済みにします。');
    await user.click(within(dialog).getByRole('button', { name: '発送済みとして登録する' }));

    const day = within(dialog).getByLabelText('発送日');
    await waitFor(() => expect(day).toHaveAccessibleDescription('発送日に未来の日付は指定できません。'));
    expect(day).toHaveAttribute('aria-invalid', 'true');
    expect(day).toHaveFocus();
  });

  describe('the CSV download', () => {
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:deliveries');
    const revokeObjectURL = vi.fn();

    beforeEach(() => {
      createObjectURL.mockClear();
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    });

    afterEach(() => {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    });

    it('asks for the filtered list and saves it as deliveries-{id}.csv', async () => {
      loginAs({ isAdmin: true });
      serveList(() => list([delivery()]));
      const asked: string[] = [];
      server.use(
        http.get(apiUrl('/admin/projects/12/deliveries/export.csv'), ({ request }) => {
          asked.push(new URL(request.url).searchParams.toString());
          return new HttpResponse('\uFEFF"支援ID"\r\n"101"\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
        }),
      );
      const clicked: { href: string; download: string }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push({ href: this.href, download: this.download });
      });
      const user = userEvent.setup();
      renderApp('/admin/projects/12/deliveries');
      await table();

      await user.selectOptions(screen.getByLabelText('発送状況'), '発送済み');
      await user.click(screen.getByRole('button', { name: 'CSVをダウンロード' }));

      await waitFor(() => expect(clicked).toEqual([{ href: 'blob:deliveries', download: 'deliveries-12.csv' }]));
      expect(asked).toEqual(['state=shipped']);
    });
  });
});
