import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { IMAGE_CHOOSE_LABEL } from '../components/ImageUpload';
import { CORPORATE_MESSAGES, validateCorporateUrl } from './EditCorporate';

const setup = async () => {
  loginAs();
  serveUser(makeUser({ corporatename: '上毛商事', corporateurl: null }));
  const user = userEvent.setup();
  const rendered = renderApp('/edit/corporate');
  await screen.findByLabelText('企業名');
  return { user, ...rendered };
};

describe('EditCorporate', () => {
  it('requires the company name and a valid site URL', async () => {
    const { user } = await setup();
    const submit = screen.getByRole('button', { name: '登録する' });

    await user.clear(screen.getByLabelText('企業名'));
    await user.tab();
    expect(screen.getByText(CORPORATE_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.type(screen.getByLabelText('企業名'), '上毛商事');
    await user.type(screen.getByLabelText(/企業サイトURL/), 'example');
    await user.tab();
    expect(screen.getByText(CORPORATE_MESSAGES.urlFormat)).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });

  it('offers the logo upload with the accepted types through a visible button that does not submit', async () => {
    const bodies = answerPost('/user/set/updateCorporateData', { updated: true });
    const { user } = await setup();
    const input = screen.getByLabelText<HTMLInputElement>('企業ロゴの画像ファイル');
    expect(input).toHaveAttribute('accept', '.jpg,.jpeg,.png,.gif');
    const opened = vi.spyOn(input, 'click');
    const group = screen.getByRole('group', { name: '企業ロゴ' });

    await user.click(within(group).getByRole('button', { name: IMAGE_CHOOSE_LABEL }));

    expect(opened).toHaveBeenCalledTimes(1);
    expect(bodies).toEqual([]);
  });

  it('shows the newest logo, which the server lists first', async () => {
    loginAs();
    serveUser(
      makeUser({
        corporatename: '上毛商事',
        urls: {
          icon: [],
          logo: [
            { id: 22, url: 'https://cdn.example.jp/logo-new.png' },
            { id: 21, url: 'https://cdn.example.jp/logo-old.png' },
          ],
        },
      }),
    );
    renderApp('/edit/corporate');

    expect(await screen.findByRole('img', { name: '企業ロゴ' })).toHaveAttribute(
      'src',
      'https://cdn.example.jp/logo-new.png',
    );
  });

  it('saves and goes back to my page with a message', async () => {
    const bodies = answerPost('/user/set/updateCorporateData', { updated: true });
    const { user, router } = await setup();

    await user.type(screen.getByLabelText(/企業サイトURL/), 'https://jomo.example.jp/');
    await user.click(screen.getByRole('button', { name: '登録する' }));

    await waitFor(() => expect(router.location.pathname).toBe('/account/'));
    expect(bodies).toEqual([{ id: 7, corporatename: '上毛商事', corporateurl: 'https://jomo.example.jp/' }]);
    expect(await screen.findByText(CORPORATE_MESSAGES.saved)).toBeInTheDocument();
  });

  it('shows the server message when saving fails', async () => {
    answerPost('/user/set/updateCorporateData', {
      status: 400,
      body: { error: 'validation_failed', message: CORPORATE_MESSAGES.urlFormat },
    });
    const { user } = await setup();

    await user.click(screen.getByRole('button', { name: '登録する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(CORPORATE_MESSAGES.urlFormat);
  });
});

describe('validateCorporateUrl', () => {
  it.each(['', 'https://example.jp', 'http://www.example.co.jp/about?x=1'])('accepts %j', (url) => {
    expect(validateCorporateUrl(url)).toBeNull();
  });

  it.each(['example.jp', 'ftp://example.jp', 'https://localhost', 'https://'])('rejects %j', (url) => {
    expect(validateCorporateUrl(url)).toBe(CORPORATE_MESSAGES.urlFormat);
  });
});
