import { useState } from 'react';
import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { Modal } from '@/components/Modal';
import { PageLoading } from '@/components/PageLoading';
import { useSession } from '@/app/session/useSession';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import {
  useCancelSubscriptionMutation,
  useSubscriptionsQuery,
  type Subscription,
} from '@/app/session/subscriptionsApi';
import { formatJapaneseDate, formatYen } from '@/lib/format';

const STATUS_LABELS: Record<Subscription['status'], string> = {
  active: '継続中',
  past_due: 'お支払いエラー（再試行待ち）',
  canceling: '停止手続き済み',
  ended: '終了',
};

function Item({ subscription, onStop }: { subscription: Subscription; onStop: (s: Subscription) => void }) {
  const titleId = `subscription-${subscription.id}-title`;
  const { stoppable } = subscription;
  return (
    <li className="monthly-supports__item">
      <article aria-labelledby={titleId}>
        <h3 id={titleId} className="monthly-supports__title">
          <Link to={paths.project.getHref(subscription.projectSlug)}>{subscription.projectTitle}</Link>
        </h3>
        <dl className="confirm-list">
          <div>
            <dt>リターン</dt>
            <dd>{subscription.returnTitle}</dd>
          </div>
          <div>
            <dt>金額</dt>
            <dd>{formatYen(subscription.amount)}/月（税込）</dd>
          </div>
          <div>
            <dt>状態</dt>
            <dd>{STATUS_LABELS[subscription.status]}</dd>
          </div>
          {subscription.nextChargeDate && (
            <div>
              <dt>次回のお支払い</dt>
              <dd>{formatJapaneseDate(subscription.nextChargeDate)}</dd>
            </div>
          )}
          {subscription.endsOn && (
            <div>
              <dt>{subscription.status === 'ended' ? '終了日' : '停止日'}</dt>
              <dd>{formatJapaneseDate(subscription.endsOn)}</dd>
            </div>
          )}
          <div>
            <dt>お支払いカード</dt>
            <dd>
              {subscription.cardBrand && subscription.cardLast4
                ? `${subscription.cardBrand} 末尾${subscription.cardLast4}`
                : '—'}
            </dd>
          </div>
        </dl>
        {subscription.status === 'past_due' && (
          <p className="field__hint">
            お支払いができませんでした。<Link to={paths.editPayment.getHref()}>お支払い方法の管理</Link>
            からカードを変更してください。カード会社から本人認証を求められている場合は、
            <Link to={paths.monthlyAuthentication.getHref(subscription.id)}>本人認証のページ</Link>
            で認証するとお支払いが完了します。
          </p>
        )}
        {stoppable && (
          <button
            type="button"
            className="button button--block"
            onClick={() => onStop(subscription)}
            aria-describedby={titleId}
          >
            この毎月のご支援を停止する
          </button>
        )}
      </article>
    </li>
  );
}

/** My page's 毎月のご支援: each monthly support, with a stop that asks first (issue #10). */
export function MonthlySupports() {
  // A monthly support needs a saved card, so a member without a provider customer has none: nothing to ask.
  const { hasCustomer } = useSession();
  const { data, isLoading, error, refetch } = useSubscriptionsQuery(undefined, { skip: !hasCustomer });
  const [cancel, { isLoading: stopping }] = useCancelSubscriptionMutation();
  const [asking, setAsking] = useState<Subscription | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const stop = async (subscription: Subscription) => {
    setMessage(null);
    try {
      const after = await cancel(subscription.id).unwrap();
      setMessage({
        tone: 'success',
        text: after.endsOn
          ? `毎月のご支援の停止を承りました。${formatJapaneseDate(after.endsOn)}まではご支援が続き、以降のお支払いはありません。`
          : '毎月のご支援の停止を承りました。',
      });
    } catch (failure) {
      setMessage({ tone: 'error', text: getErrorMessage(failure) });
    } finally {
      setAsking(null);
    }
  };

  return (
    <section id="monthly-supports" className="monthly-supports" aria-labelledby="monthly-supports-title">
      <h2 id="monthly-supports-title" className="account-page__subtitle">
        毎月のご支援
      </h2>
      {message && (
        <Notice tone={message.tone}>
          <p>{message.text}</p>
        </Notice>
      )}
      {!hasCustomer ? (
        <p className="empty">毎月のご支援はありません。</p>
      ) : isLoading ? (
        <PageLoading />
      ) : !data ? (
        <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />
      ) : data.length === 0 ? (
        <p className="empty">毎月のご支援はありません。</p>
      ) : (
        <ul className="monthly-supports__list">
          {data.map((subscription) => (
            <Item key={subscription.id} subscription={subscription} onStop={setAsking} />
          ))}
        </ul>
      )}
      {asking && (
        <Modal title="毎月のご支援の停止" onClose={() => setAsking(null)}>
          <p className="modal__message">「{asking.projectTitle}」への毎月のご支援を停止します。よろしいですか？</p>
          {asking.nextChargeDate && (
            <p>{formatJapaneseDate(asking.nextChargeDate)}までのお支払い済みの期間はご支援が続き、以降のお支払いはありません。</p>
          )}
          <div className="modal__actions">
            <button
              type="button"
              className="button button--primary button--block"
              disabled={stopping}
              onClick={() => void stop(asking)}
            >
              停止する
            </button>
            <button type="button" className="button button--block" onClick={() => setAsking(null)}>
              キャンセル
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
