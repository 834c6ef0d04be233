import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { FAVOURITE_MAIL_LABEL } from './FavouriteMailSetting';

describe('my page’s mail about kept projects (お気に入り)', () => {
  it('is off until the member turns it on, then says so and sends the choice', async () => {
    loginAs();
    serveUser(makeUser());
    const sent: unknown[] = [];
    server.use(
      http.post(apiUrl('/user/favouriteMail'), async ({ request }) => {
        const body = (await request.json()) as { enabled: boolean };
        sent.push(body);
        return HttpResponse.json(body);
      }),
    );
    const user = userEvent.setup();
    renderApp('/account/');

    const section = await screen.findByRole('region', { name: 'お気に入り' });
    const box = await within(section).findByRole('checkbox', { name: FAVOURITE_MAIL_LABEL });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/終了の48時間前と、活動報告が公開されたとき/);

    await user.click(box);

    expect(await within(section).findByText('お気に入りのメールを受け取る設定にしました。')).toBeInTheDocument();
    expect(box).toBeChecked();
    expect(sent).toEqual([{ enabled: true }]);
  });
});
