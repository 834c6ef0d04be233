import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { PAYMENT_MESSAGES } from '../messages';
import { fakeStripe, serveLibrary, subscription } from '../testing/fixtures';
import { MONTHLY_AUTHENTICATION_MESSAGES } from './MonthlyAuthentication';

const fake = fakeStripe();
const PAGE = '/account/monthly/12/authenticate';

beforeEach(() => {
  fake.stripe.confirmCardPayment.mockReset();
  loginAs();
  serveUser(makeUser());
  serveLibrary();
});

/** Answers the page's read with the subscription and, when given, the month waiting for 3-D Secure. */
const servePending = (clientSecret: string | null, status: 'active' | 'past_due' = 'past_due'): number[] => {
  const ids: number[] = [];
  server.use(
    http.get(apiUrl('/stripe/subscription/get/authentication'), ({ request }) => {
      ids.push(Number(new URL(request.url).searchParams.get('id')));
      return HttpResponse.json({
        subscription: subscription({ status }),
        clientSecret,
        amount: clientSecret ? 1100 : null,
      });
    }),
  );
  return ids;
};

describe('the page a renewal waiting for 3-D Secure links to (毎月のご支援の本人認証)', () => {
  it('shows the month, opens the bank’s authentication and says the month is paid', async () => {
    const user = userEvent.setup();
    const ids = servePending('pi_9_secret_z');
    const marked = answerPost('/stripe/subscription/set/authenticated', { subscription: subscription() });
    fake.stripe.confirmCardPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    renderApp(PAGE);

    expect(await screen.findByRole('heading', { level: 1, name: '毎月のご支援の本人認証' })).toBeInTheDocument();
    expect(await screen.findByText(MONTHLY_AUTHENTICATION_MESSAGES.explanation)).toBeInTheDocument();
    expect(screen.getByText('前橋の夏祭りを復活させたい')).toBeInTheDocument();
    expect(screen.getByText('1,100円（税込）')).toBeInTheDocument();
    expect(ids).toContain(12);
    const button = screen.getByRole('button', { name: '本人認証してお支払いを完了する' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);

    expect(await screen.findByText(MONTHLY_AUTHENTICATION_MESSAGES.completed)).toBeInTheDocument();
    expect(fake.stripe.confirmCardPayment).toHaveBeenCalledWith('pi_9_secret_z');
    expect(marked).toEqual([{ id: 12 }]);
  });

  it('says so when the authentication fails, and nothing is marked done', async () => {
    const user = userEvent.setup();
    servePending('pi_9_secret_z');
    const marked = answerPost('/stripe/subscription/set/authenticated', { subscription: subscription() });
    fake.stripe.confirmCardPayment.mockResolvedValue({ error: { message: 'authentication failed' } });
    renderApp(PAGE);

    const button = await screen.findByRole('button', { name: '本人認証してお支払いを完了する' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);

    expect(await screen.findByText(PAYMENT_MESSAGES.authenticationFailed)).toBeInTheDocument();
    expect(marked).toEqual([]);
  });

  it('says the payment is not confirmed yet when the server cannot read it back after the authentication', async () => {
    const user = userEvent.setup();
    servePending('pi_9_secret_z');
    answerPost('/stripe/subscription/set/authenticated', { status: 503, body: { error: 'payment_unavailable', message: 'x' } });
    fake.stripe.confirmCardPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    renderApp(PAGE);

    const button = await screen.findByRole('button', { name: '本人認証してお支払いを完了する' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);

    expect(await screen.findByText(MONTHLY_AUTHENTICATION_MESSAGES.notCompleted)).toBeInTheDocument();
    expect(screen.queryByText(PAYMENT_MESSAGES.authenticationFailed)).not.toBeInTheDocument();
  });

  it('tells a member with no month waiting that there is nothing to do', async () => {
    servePending(null, 'active');
    renderApp(PAGE);

    expect(await screen.findByText(MONTHLY_AUTHENTICATION_MESSAGES.nothingToDo)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '本人認証してお支払いを完了する' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of another member’s support with a way to try again', async () => {
    server.use(
      http.get(apiUrl('/stripe/subscription/get/authentication'), () =>
        HttpResponse.json({ error: 'not_found', message: '見つかりません' }, { status: 404 }),
      ),
    );
    renderApp(PAGE);

    expect(await screen.findByRole('button', { name: '再読み込みする' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '本人認証してお支払いを完了する' })).not.toBeInTheDocument();
  });
});
