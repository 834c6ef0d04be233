import { useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  useAuthenticatedMutation,
  usePendingAuthenticationQuery,
  type Subscription,
} from '@/app/session/subscriptionsApi';
import { LoadError } from '@/components/form/LoadError';
import { FormAlert, Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { usePaymentLibraryQuery } from '../api/paymentApi';
import { formatYen } from '@/lib/format';
import { PAYMENT_MESSAGES } from '../messages';
import { loadStripeLibrary } from '../stripe';
import '../payment.css';

export const MONTHLY_AUTHENTICATION_MESSAGES = {
  explanation:
    '毎月のご支援のお支払いで、カード会社が本人認証（3Dセキュア）を求めています。本人認証を行うと、今月分のお支払いが完了します。',
  nothingToDo: '本人認証が必要なお支払いはありません。',
  completed: '本人認証が完了し、今月分のお支払いが完了しました。ご支援ありがとうございます。',
  notCompleted: 'お支払いはまだ完了していません。時間をおいてマイページでご確認ください。',
} as const;

/**
 * A monthly support's month that waits for the member to authenticate with the card (3-D Secure), linked from
 * the mail about it: the project, the amount, and one button that opens the bank's authentication in Stripe.js.
 */
export function MonthlyAuthentication() {
  const titleId = useId();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const pending = usePendingAuthenticationQuery(id, { skip: !valid });
  const library = usePaymentLibraryQuery();
  const [markAuthenticated] = useAuthenticatedMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<Subscription | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);

  const authenticate = async (clientSecret: string) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setFailure(null);
    try {
      const stripe = library.data ? await loadStripeLibrary(library.data) : null;
      if (!stripe) throw new Error(PAYMENT_MESSAGES.libraryUnavailable);
      const result = await stripe.confirmCardPayment(clientSecret);
      if (result.error) throw new Error(PAYMENT_MESSAGES.authenticationFailed);
      // Authenticated: the provider's webhooks record the month even when this read-back does not answer.
      const after = await markAuthenticated(id).unwrap().catch(() => null);
      if (!after) throw new Error(MONTHLY_AUTHENTICATION_MESSAGES.notCompleted);
      setDone(after);
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : PAYMENT_MESSAGES.authenticationFailed);
      void pending.refetch();
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const body = () => {
    if (!valid) {
      return (
        <Notice tone="error">
          <p>ページが見つかりません。</p>
        </Notice>
      );
    }
    if (pending.isLoading) return <PageLoading />;
    if (!pending.data) {
      return <LoadError message={getErrorMessage(pending.error)} onRetry={() => void pending.refetch()} />;
    }
    const { subscription, clientSecret, amount } = pending.data;
    const summary = (
      <dl className="monthly-authentication__summary">
        <dt>プロジェクト</dt>
        <dd>{subscription.projectTitle}</dd>
        <dt>リターン</dt>
        <dd>{subscription.returnTitle}</dd>
        <dt>お支払い額</dt>
        <dd>{formatYen(amount ?? subscription.amount)}（税込）</dd>
      </dl>
    );
    if (done) {
      return (
        <>
          <Notice tone={done.status === 'active' ? 'success' : 'error'}>
            <p>
              {done.status === 'active'
                ? MONTHLY_AUTHENTICATION_MESSAGES.completed
                : MONTHLY_AUTHENTICATION_MESSAGES.notCompleted}
            </p>
          </Notice>
          {summary}
        </>
      );
    }
    if (!clientSecret) {
      return (
        <>
          <Notice tone="info">
            <p>{MONTHLY_AUTHENTICATION_MESSAGES.nothingToDo}</p>
          </Notice>
          {summary}
        </>
      );
    }
    return (
      <>
        <p>{MONTHLY_AUTHENTICATION_MESSAGES.explanation}</p>
        {summary}
        <FormAlert message={failure} />
        <SubmitButton type="button" busy={busy} disabled={!library.data} onClick={() => void authenticate(clientSecret)}>
          本人認証してお支払いを完了する
        </SubmitButton>
      </>
    );
  };

  return (
    <section className="page monthly-authentication" aria-labelledby={titleId}>
      <h1 id={titleId} className="page__title">
        毎月のご支援の本人認証
      </h1>
      {body()}
      <p>
        <Link to={paths.account.getHref()}>マイページへ戻る</Link>
      </p>
    </section>
  );
}
