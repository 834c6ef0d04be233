import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '@/lib/apiTypes';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';

const card = (id: number, slug: string, title: string, isOpen: boolean): Schemas['ProjectCardDto'] => ({
  id,
  slug,
  title,
  description: '',
  target: 1_000_000,
  period: '2026-12-31',
  urls: { main: null },
  isDonation: false,
  taxIncludes: true,
  hasAnonymousBank: false,
  daysLeft: isOpen ? 12 : 0,
  isOpen,
  sum: { amount: 345_000, lot: 20 },
  progress: { ring: 34.5, card: 34.5, capped: 34.5 },
  achieved: false,
  area: null,
  category: null,
});

const supported: Schemas['SupportedProjectDto'] = {
  projectId: 1,
  slug: 'maebashi-rose-garden',
  title: '前橋ばら園 花壇よみがえりプロジェクト',
  state: 'open',
  stateLabel: '募集中',
  returns: [
    {
      title: 'お礼のメール',
      lots: 3,
      deliveries: [{ state: 'shipped', label: '発送済み', shippedOn: '2026-11-20', lots: 3 }],
    },
    {
      title: 'ばらの苗木 1鉢',
      lots: 3,
      deliveries: [
        { state: 'shipped', label: '発送済み', shippedOn: '2026-11-22', lots: 1 },
        { state: 'unshipped', label: '未発送', shippedOn: null, lots: 2 },
      ],
    },
  ],
  saleIds: [41, 40],
  paid: 19_000,
  refunded: 0,
  lastSupportedAt: '2026-12-01T10:00:00+09:00',
  latestNews: { id: 7, title: '苗の植え付けが始まりました', publishedAt: '2026-11-25T18:00:00+09:00' },
};

const page = (projects: Schemas['SupportedProjectDto'][], total = projects.length, at = 1) => ({
  projects,
  total,
  page: at,
  perPage: 20,
});

const serveSupports = (projects: Schemas['SupportedProjectDto'][]) =>
  server.use(http.get(apiUrl('/user/supports'), () => HttpResponse.json(page(projects))));

const supportedLine = async (title: string) => {
  const region = await screen.findByRole('region', { name: '支援したプロジェクト' });
  return within(region).findByRole('article', { name: title });
};

describe('My page: 支援したプロジェクト and お気に入り', () => {
  it('lists each supported project once with its state, returns, payment history and receipts', async () => {
    loginAs();
    serveUser(makeUser());
    serveSupports([supported]);
    renderApp('/account/');

    const line = await supportedLine(supported.title);
    expect(within(line).getByRole('link', { name: supported.title })).toHaveAttribute(
      'href',
      '/projects/maebashi-rose-garden/',
    );
    expect(within(line).getByText('募集中')).toBeInTheDocument();
    expect(within(line).getByText('お礼のメール × 3口')).toBeInTheDocument();
    expect(within(line).getByText('ばらの苗木 1鉢 × 3口')).toBeInTheDocument();
    expect(within(line).getByRole('link', { name: 'お支払い履歴' })).toHaveAttribute('href', '/edit/payment-list');
    expect(within(line).getByRole('link', { name: '領収書 1' })).toHaveAttribute('href', '/account/receipts/41');
  });

  it('shows each return as shipped with its day or not shipped, split when only some lots are shipped', async () => {
    loginAs();
    serveUser(makeUser());
    serveSupports([supported]);
    renderApp('/account/');

    const line = await supportedLine(supported.title);
    const all = within(line).getByText('お礼のメール × 3口').closest('li')!;
    expect(all).toHaveTextContent('お礼のメール × 3口発送済み（2026年11月20日 発送）');
    const parts = within(line).getByRole('list', { name: 'ばらの苗木 1鉢の発送状況' });
    const [shipped, unshipped] = within(parts).getAllByRole('listitem');
    expect(shipped).toHaveTextContent('発送済み（2026年11月22日 発送） 1口');
    expect(unshipped).toHaveTextContent('未発送 2口');
  });

  it('links the latest news the member may read, with its day', async () => {
    loginAs();
    serveUser(makeUser());
    serveSupports([supported]);
    renderApp('/account/');

    const line = await supportedLine(supported.title);
    expect(within(line).getByRole('link', { name: '苗の植え付けが始まりました' })).toHaveAttribute(
      'href',
      '/projects/maebashi-rose-garden/#news',
    );
    expect(within(line).getByText('2026年11月25日')).toBeInTheDocument();
  });

  it('says so when there is no news to read, and a project no longer public has no links but its receipts', async () => {
    loginAs();
    serveUser(makeUser());
    const quiet = { ...supported, slug: 'numata-apple', title: '沼田のりんご', latestNews: null };
    const gone = {
      ...supported,
      projectId: null,
      slug: 'gone',
      title: '非公開になったプロジェクト',
      state: null,
      stateLabel: null,
      returns: [],
      saleIds: [12],
      latestNews: null,
    };
    serveSupports([quiet, gone]);
    renderApp('/account/');

    const line = await supportedLine('沼田のりんご');
    expect(within(line).getByText('お読みいただける活動報告はまだありません。')).toBeInTheDocument();
    const hidden = await supportedLine('非公開になったプロジェクト');
    expect(within(hidden).queryByRole('link', { name: '非公開になったプロジェクト' })).not.toBeInTheDocument();
    expect(within(hidden).getByRole('link', { name: '領収書' })).toHaveAttribute('href', '/account/receipts/12');
  });

  it('shows a loading state, then offers a retry when the list cannot be read', async () => {
    loginAs();
    serveUser(makeUser());
    let fail = true;
    server.use(
      http.get(apiUrl('/user/supports'), async () => {
        await delay(50);
        return fail
          ? HttpResponse.json({ error: 'internal', message: '' }, { status: 500 })
          : HttpResponse.json(page([supported]));
      }),
    );
    renderApp('/account/');

    const region = await screen.findByRole('region', { name: '支援したプロジェクト' });
    expect(within(region).getByRole('status')).toHaveTextContent('読み込み中…');
    const retry = await within(region).findByRole('button', { name: '再読み込みする' });
    fail = false;
    await userEvent.click(retry);
    expect(await within(region).findByRole('article', { name: supported.title })).toBeInTheDocument();
  });

  it('adds the next page under the first with もっと見る and hides the button at the end', async () => {
    loginAs();
    serveUser(makeUser());
    const asked: string[] = [];
    server.use(
      http.get(apiUrl('/user/supports'), ({ request }) => {
        const at = new URL(request.url).searchParams.get('page') ?? '';
        asked.push(at);
        const line = { ...supported, slug: `p${at}`, title: `プロジェクト${at}` };
        return HttpResponse.json(page([line], 21, Number(at)));
      }),
    );
    renderApp('/account/');

    await supportedLine('プロジェクト1');
    await userEvent.click(screen.getByRole('button', { name: 'もっと見る（1件）' }));

    expect(await supportedLine('プロジェクト2')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'プロジェクト1' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /もっと見る/ })).not.toBeInTheDocument();
    expect(asked).toEqual(['1', '2']);
  });

  it('says when nothing is supported or kept yet', async () => {
    loginAs();
    serveUser(makeUser());
    renderApp('/account/');

    const supports = await screen.findByRole('region', { name: '支援したプロジェクト' });
    expect(await within(supports).findByText('まだ支援したプロジェクトはありません。')).toBeInTheDocument();
    const favourites = screen.getByRole('region', { name: 'お気に入り' });
    expect(await within(favourites).findByText(/お気に入りはまだありません。/)).toBeInTheDocument();
  });

  it('lists kept projects with their state and removes one', async () => {
    loginAs();
    serveUser(makeUser());
    let list = [
      { project: card(2, 'takasaki-daruma', '高崎だるま', true), state: 'open', stateLabel: '募集中', keptAt: '2026-12-05T10:00:00+09:00' },
      { project: card(3, 'kiryu-textile', '桐生織', false), state: 'succeeded', stateLabel: '成立', keptAt: '2026-12-04T10:00:00+09:00' },
    ];
    server.use(
      http.get(apiUrl('/user/favourites'), () => HttpResponse.json({ favourites: list, limit: 500 })),
      http.post(apiUrl('/user/favourites/2/delete'), () => {
        list = list.filter((f) => f.project.id !== 2);
        return HttpResponse.json({ kept: false });
      }),
    );
    renderApp('/account/');

    const region = await screen.findByRole('region', { name: 'お気に入り' });
    const ended = await within(region).findByRole('article', { name: '桐生織' });
    expect(within(ended).getByText('成立')).toBeInTheDocument();
    const open = within(region).getByRole('article', { name: '高崎だるま' });
    expect(within(open).getByText('残り12日')).toBeInTheDocument();

    const remove = () => within(open).getByRole('button', { name: 'お気に入りから外す' });
    await waitFor(() => expect(remove()).not.toHaveAttribute('aria-busy'));
    await userEvent.click(remove());

    // Gone once the un-keep is applied to the list (at once, or when the list is read again): wait for it.
    await waitFor(() => expect(within(region).queryByRole('article', { name: '高崎だるま' })).not.toBeInTheDocument());
    expect(within(region).getByRole('article', { name: '桐生織' })).toBeInTheDocument();
  });

  it('offers a retry when the list cannot be read', async () => {
    loginAs();
    serveUser(makeUser());
    server.use(http.get(apiUrl('/user/favourites'), () => HttpResponse.json({ error: 'internal', message: '' }, { status: 500 })));
    renderApp('/account/');

    const region = await screen.findByRole('region', { name: 'お気に入り' });
    expect(await within(region).findByRole('button', { name: '再読み込みする' })).toBeInTheDocument();
  });
});
