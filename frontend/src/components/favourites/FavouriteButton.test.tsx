import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '@/lib/apiTypes';
import { readLoginRef } from '@/lib/storage';
import { renderWithProviders } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import { FavouriteButton } from './FavouriteButton';

const project: Schemas['ProjectCardDto'] = {
  id: 5,
  slug: 'maebashi-fes',
  title: '前橋の夏祭りを復活させたい',
  description: '商店街のみんなで夏祭りを開きます。',
  target: 1_000_000,
  period: '2026-12-31',
  urls: { main: null },
  isDonation: false,
  taxIncludes: true,
  hasAnonymousBank: false,
  daysLeft: 36,
  isOpen: true,
  sum: { amount: 123_000, lot: 42 },
  progress: { ring: 12.3, card: 12.3, capped: 12.3 },
  achieved: false,
  area: null,
  category: null,
};

const kept = { project, state: 'open' as const, stateLabel: '募集中', keptAt: '2026-12-05T10:00:00+09:00' };

const renderButton = () =>
  renderWithProviders(
    <Routes>
      <Route path="/projects/:slug/" element={<FavouriteButton project={project} />} />
      <Route path="/login/" element={<p>ログイン画面</p>} />
    </Routes>,
    { route: '/projects/maebashi-fes/#news' },
  );

/** The button once it answers taps (the session checked, the member's list read). */
const readyButton = async (name: string) => {
  await screen.findByRole('button', { name });
  await waitFor(() => expect(screen.getByRole('button', { name })).not.toHaveAttribute('aria-busy'));
  return screen.getByRole('button', { name });
};

describe('FavouriteButton', () => {
  it('keeps a project at once and then reads the list back from the server', async () => {
    loginAs();
    let list: (typeof kept)[] = [];
    const calls: string[] = [];
    server.use(
      http.get(apiUrl('/user/favourites'), () => HttpResponse.json({ favourites: list, limit: 500 })),
      http.post(apiUrl('/user/favourites/5'), async () => {
        calls.push('keep');
        await delay(50);
        list = [kept];
        return HttpResponse.json({ kept: true });
      }),
    );
    renderButton();

    const button = await readyButton('お気に入りに追加');
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(button);

    // Optimistic: pressed before the server has answered.
    const pressed = screen.getByRole('button', { name: 'お気に入りから外す' });
    expect(pressed).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByRole('button', { name: 'お気に入りから外す' })).toBeInTheDocument();
    expect(calls).toEqual(['keep']);
  });

  it('removes a kept project', async () => {
    loginAs();
    let removed = false;
    server.use(
      http.get(apiUrl('/user/favourites'), () => HttpResponse.json({ favourites: removed ? [] : [kept], limit: 500 })),
      http.post(apiUrl('/user/favourites/5/delete'), () => {
        removed = true;
        return HttpResponse.json({ kept: false });
      }),
    );
    renderButton();

    await userEvent.click(await readyButton('お気に入りから外す'));

    expect(await screen.findByRole('button', { name: 'お気に入りに追加' })).toHaveAttribute('aria-pressed', 'false');
    expect(removed).toBe(true);
  });

  it('goes back to not kept and says why when the server refuses', async () => {
    loginAs();
    const message = 'お気に入りは500件まで登録できます。ほかのプロジェクトを外してから追加してください。';
    server.use(
      http.post(apiUrl('/user/favourites/5'), () =>
        HttpResponse.json({ error: 'favourites_full', message }, { status: 409 }),
      ),
    );
    renderButton();

    await userEvent.click(await readyButton('お気に入りに追加'));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'お気に入りに追加' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('ignores taps while the stored session is being checked', async () => {
    loginAs();
    server.use(http.get(apiUrl('/user/loginCheck'), async () => {
      await delay('infinite');
      return HttpResponse.json({});
    }));
    renderButton();

    const button = screen.getByRole('button', { name: 'お気に入りに追加' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(button);
    expect(screen.queryByText('ログイン画面')).not.toBeInTheDocument();
  });

  it('takes a guest to the login page and remembers where to come back to', async () => {
    renderButton();

    await userEvent.click(screen.getByRole('button', { name: 'お気に入りに追加' }));

    expect(await screen.findByText('ログイン画面')).toBeInTheDocument();
    expect(readLoginRef()).toBe('/projects/maebashi-fes/#news');
  });
});
