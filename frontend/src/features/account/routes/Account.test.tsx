import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';

describe('Account', () => {
  it('shows the member and links to every edit page', async () => {
    loginAs();
    serveUser(
      makeUser({
        // Newest first, as the server lists them: the second upload is the current icon.
        urls: {
          icon: [
            { id: 2, url: 'https://cdn.example.jp/icon.png' },
            { id: 1, url: 'https://cdn.example.jp/old-icon.png' },
          ],
          logo: [],
        },
        addresses: {
          main: [
            {
              id: 3,
              name: '上州太郎',
              telNumber: '0272000000',
              zip: '3710023',
              pref: '群馬県',
              city: '前橋市',
              address: '本町1-1-1',
              building: null,
            },
          ],
        },
      }),
    );
    renderApp('/account/');

    expect(await screen.findByText('taro@example.jp')).toBeInTheDocument();
    expect(screen.getByText('上州太郎 さん')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'プロフィールアイコン' })).toHaveAttribute(
      'src',
      'https://cdn.example.jp/icon.png',
    );
    expect(screen.getByText(/〒3710023 群馬県前橋市本町1-1-1/)).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'アカウント設定' });
    const hrefs = within(menu)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual([
      '/edit/email',
      '/edit/password',
      '/edit/profile',
      '/edit/corporate',
      '/edit/addresses',
      '/edit/payment',
      '/edit/payment-list',
    ]);
  });

  it('tells about a pending e-mail change', async () => {
    loginAs();
    serveUser(makeUser({ updateEmail: 'new@example.jp' }));
    renderApp('/account/');

    expect(await screen.findByText(/new@example\.jp への変更手続き中です。/)).toBeInTheDocument();
  });

  it('shows the failure with a retry that loads again', async () => {
    loginAs();
    let calls = 0;
    server.use(
      http.get(apiUrl('/user/get/authUser'), () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ error: 'internal', message: 'ただいま混み合っています。' }, { status: 500 })
          : HttpResponse.json({ user: makeUser() });
      }),
    );
    const user = userEvent.setup();
    renderApp('/account/');

    expect(await screen.findByRole('alert')).toHaveTextContent('ただいま混み合っています。');
    await user.click(screen.getByRole('button', { name: '再読み込みする' }));
    expect(await screen.findByText('taro@example.jp')).toBeInTheDocument();
  });

  it('shows loading while the user is on its way', async () => {
    loginAs();
    server.use(http.get(apiUrl('/user/get/authUser'), () => new Promise<never>(() => undefined)));
    renderApp('/account/');

    expect(await screen.findByRole('heading', { level: 1, name: 'マイページ' })).toBeInTheDocument();
    expect(screen.getByText('読み込み中…')).toBeInTheDocument();
  });
});
