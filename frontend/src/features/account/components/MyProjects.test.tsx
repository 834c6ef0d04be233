import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
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
    { title: 'お礼のメール', lots: 3 },
    { title: 'ばらの苗木 1鉢', lots: 1 },
  ],
  saleIds: [41, 40],
  paid: 19_000,
  refunded: 0,
  lastSupportedAt: '2026-12-01T10:00:00+09:00',
};

describe('My page: 支援したプロジェクト and お気に入り', () => {
  it('lists each supported project once with its state, returns, payment history and receipts', async () => {
    loginAs();
    serveUser(makeUser());
    server.use(http.get(apiUrl('/user/supports'), () => HttpResponse.json({ projects: [supported] })));
    renderApp('/account/');

    const region = await screen.findByRole('region', { name: '支援したプロジェクト' });
    const line = await within(region).findByRole('article', { name: supported.title });
    expect(within(line).getByRole('link', { name: supported.title })).toHaveAttribute(
      'href',
      '/projects/maebashi-rose-garden/',
    );
    expect(within(line).getByText('募集中')).toBeInTheDocument();
    expect(within(line).getByText('お礼のメール × 3口')).toBeInTheDocument();
    expect(within(line).getByText('ばらの苗木 1鉢 × 1口')).toBeInTheDocument();
    expect(within(line).getByRole('link', { name: 'お支払い履歴' })).toHaveAttribute('href', '/edit/payment-list');
    expect(within(line).getByRole('link', { name: '領収書 1' })).toHaveAttribute('href', '/account/receipts/41');
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
