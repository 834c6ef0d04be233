import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '@/lib/apiError';
import { renderWithProviders } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { EMAIL_MESSAGES } from '@/lib/validation';
import { SIGNUP_MESSAGES, SignupForm } from './SignupForm';

type Body = { flag: number; email: string; agreeTerms: boolean };

/** Answers `path` with `userFlag` and records the request bodies. */
const answer = (path: '/user/register' | '/user/reRegister', userFlag: number) => {
  const bodies: Body[] = [];
  server.use(
    http.post(apiUrl(path), async ({ request }) => {
      bodies.push((await request.json()) as Body);
      return HttpResponse.json({ userFlag });
    }),
  );
  return bodies;
};

/** The form with the agreement box ticked (unless `agree` is false). */
const setup = async ({ agree = true } = {}) => {
  const user = userEvent.setup();
  renderWithProviders(<SignupForm />, { route: '/signup/' });
  const agreement = screen.getByRole('checkbox', { name: '利用規約とプライバシーポリシーに同意する' });
  if (agree) await user.click(agreement);
  return {
    user,
    agreement,
    input: screen.getByLabelText('メールアドレス'),
    submit: screen.getByRole('button', { name: '確認メールを送信する' }),
  };
};

describe('SignupForm', () => {
  it('needs the agreement to the terms and the privacy policy, with links to both', async () => {
    const bodies = answer('/user/register', 100);
    const { user, agreement, input, submit } = await setup({ agree: false });
    expect(screen.getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms/');
    expect(screen.getByRole('link', { name: 'プライバシーポリシー' })).toHaveAttribute('href', '/policy/');

    await user.type(input, 'taro@example.jp');
    expect(submit).toBeDisabled();
    await user.click(agreement);
    await user.click(agreement);
    expect(screen.getByText(SIGNUP_MESSAGES.agreementRequired)).toBeInTheDocument();
    expect(agreement).toHaveAttribute('aria-invalid', 'true');

    await user.click(agreement);
    await user.click(submit);

    expect(await screen.findByText(SIGNUP_MESSAGES.confirmationSent)).toBeInTheDocument();
    expect(bodies).toEqual([{ flag: 100, email: 'taro@example.jp', agreeTerms: true }]);
  });

  it('asks for an e-mail once the empty field is left, and keeps submit disabled', async () => {
    const { user, input, submit } = await setup();
    expect(screen.queryByText(EMAIL_MESSAGES.required)).not.toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.click(input);
    await user.tab();

    expect(screen.getByText(EMAIL_MESSAGES.required)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(submit).toBeDisabled();
  });

  it('rejects a malformed address and accepts it once corrected', async () => {
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@example');
    await user.tab();
    expect(screen.getByText(EMAIL_MESSAGES.format)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.type(input, '.jp');
    expect(screen.queryByText(EMAIL_MESSAGES.format)).not.toBeInTheDocument();
    expect(submit).toBeEnabled();
  });

  it('sends the trimmed address with flag 100 and says the confirmation mail was sent', async () => {
    const bodies = answer('/user/register', 100);
    const { user, input, submit } = await setup();

    await user.type(input, '  taro@example.jp  ');
    await user.click(submit);

    expect(await screen.findByText(SIGNUP_MESSAGES.confirmationSent)).toBeInTheDocument();
    expect(screen.getByText(/迷惑メールフォルダ/)).toBeInTheDocument();
    expect(bodies).toEqual([{ flag: 100, email: 'taro@example.jp', agreeTerms: true }]);
  });

  it('offers full registration to a guest and sends the confirmation on 本登録へ進む', async () => {
    answer('/user/register', 200);
    const reRegisterBodies = answer('/user/reRegister', 100);
    const { user, input, submit } = await setup();

    await user.type(input, 'guest@example.jp');
    await user.click(submit);
    expect(await screen.findByText(SIGNUP_MESSAGES.guest)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '本登録へ進む' }));

    expect(await screen.findByText(SIGNUP_MESSAGES.confirmationSent)).toBeInTheDocument();
    expect(screen.queryByText(SIGNUP_MESSAGES.guest)).not.toBeInTheDocument();
    expect(reRegisterBodies).toEqual([{ flag: 100, email: 'guest@example.jp', agreeTerms: true }]);
  });

  it('points a registered member to login and password reset', async () => {
    answer('/user/register', 1);
    const { user, input, submit } = await setup();

    await user.type(input, 'member@example.jp');
    await user.click(submit);

    expect(await screen.findByText(SIGNUP_MESSAGES.registered)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ログインはこちら' })).toHaveAttribute('href', '/login/');
    expect(screen.getByRole('link', { name: 'パスワードをお忘れの方はこちら' })).toHaveAttribute(
      'href',
      '/forgot-password/',
    );
  });

  it('shows the server message of an error answer, such as a rate limit', async () => {
    server.use(
      http.post(apiUrl('/user/register'), () =>
        HttpResponse.json(
          { error: 'rate_limited', message: '短時間に多くの登録がありました。しばらくしてから再度お試しください。' },
          { status: 429 },
        ),
      ),
    );
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@example.jp');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      '短時間に多くの登録がありました。しばらくしてから再度お試しください。',
    );
  });

  it('shows the generic message when the server gives no message', async () => {
    server.use(http.post(apiUrl('/user/register'), () => new HttpResponse('oops', { status: 500 })));
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@example.jp');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_ERROR_MESSAGE);
  });

  it('shows the generic message when the network fails', async () => {
    server.use(http.post(apiUrl('/user/register'), () => HttpResponse.error()));
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@example.jp');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_ERROR_MESSAGE);
  });

  it('shows the generic message for an unknown userFlag', async () => {
    answer('/user/register', 7);
    const { user, input, submit } = await setup();

    await user.type(input, 'taro@example.jp');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(NETWORK_ERROR_MESSAGE);
  });

  it('shows the server message when 本登録へ進む fails', async () => {
    answer('/user/register', 200);
    server.use(
      http.post(apiUrl('/user/reRegister'), () =>
        HttpResponse.json({ error: 'not_a_guest', message: 'ゲスト登録が見つかりませんでした。' }, { status: 409 }),
      ),
    );
    const { user, input, submit } = await setup();

    await user.type(input, 'guest@example.jp');
    await user.click(submit);
    await user.click(await screen.findByRole('button', { name: '本登録へ進む' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('ゲスト登録が見つかりませんでした。');
  });

  it('disables the button and shows progress while sending', async () => {
    // The answer waits until the test has seen the form while sending.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post(apiUrl('/user/register'), async () => {
        await answered;
        return HttpResponse.json({ userFlag: 100 });
      }),
    );
    const { user, input } = await setup();

    await user.type(input, 'taro@example.jp');
    await user.click(screen.getByRole('button', { name: '確認メールを送信する' }));

    const button = await screen.findByRole('button', { name: /送信中/ });
    expect(button).toBeDisabled();
    answer();
    await screen.findByText(SIGNUP_MESSAGES.confirmationSent);
    await waitFor(() => expect(screen.getByRole('button', { name: '確認メールを送信する' })).toBeEnabled());
  });
});
