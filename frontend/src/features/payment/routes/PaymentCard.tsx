import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useSavedCardsQuery, useSetUpCardMutation } from '../api/paymentApi';
import { CardEntry, CardRegisterModal, CardSelectModal, StripeElements, cardLabel } from '../components/CardForms';
import { PaymentFlow, type FlowContext } from '../components/PaymentFlow';
import { ReturnSummary } from '../components/ReturnSummary';
import { isMonthlyReturn, PAYMENT_MESSAGES } from '../messages';
import { cardChosen, guestCardSetUp, selectChosenCardId } from '../paymentSlice';

function MemberCards({ flow }: { flow: FlowContext }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const chosenId = useAppSelector(selectChosenCardId);
  const { data, isLoading, error, refetch } = useSavedCardsQuery();
  const [modal, setModal] = useState<'select' | 'register' | null>(null);
  const [registered, setRegistered] = useState(false);

  if (isLoading) return <PageLoading />;
  if (!data) return <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;

  const chosen = data.cards.find((card) => card.id === chosenId);
  const payingWith = chosen ?? data.cards.find((card) => card.id === data.defaultId) ?? null;

  return (
    <>
      {registered && (
        <Notice tone="success">
          <p>{PAYMENT_MESSAGES.cardRegistered}</p>
        </Notice>
      )}
      <section className="payment-section" aria-labelledby="payment-card-title">
        <h2 id="payment-card-title" className="payment-section__title">
          お支払いに使うカード
        </h2>
        {isMonthlyReturn(flow.ret) && (
          <p className="field__hint">毎月のご支援は、登録済みのカードから毎月お支払いいただきます。</p>
        )}
        {payingWith ? (
          <p>
            {cardLabel(payingWith)}
            {payingWith.id === data.defaultId && <span className="payment-cards__default">デフォルト</span>}
          </p>
        ) : (
          <p>登録済みのカードがありません。カードを登録してください。</p>
        )}
        <div className="form__actions">
          {data.cards.length > 1 && (
            <button type="button" className="button button--block" onClick={() => setModal('select')}>
              カードを選択する
            </button>
          )}
          <button type="button" className="button button--block" onClick={() => setModal('register')}>
            新しいカードを登録する
          </button>
        </div>
      </section>
      <div className="form__actions">
        <button
          type="button"
          className="button button--primary button--block"
          disabled={!payingWith}
          onClick={() => void navigate(paths.paymentConfirm.getHref(flow.projectSlug, flow.returnSlug, 1))}
        >
          次へ
        </button>
      </div>
      {modal === 'select' && (
        <CardSelectModal
          cards={data.cards}
          defaultId={data.defaultId}
          selectedId={payingWith?.id ?? null}
          onChoose={(cardId) => {
            dispatch(cardChosen(cardId));
            setModal(null);
          }}
          onClose={() => setModal(null)}
        />
      )}
      {modal === 'register' && (
        <CardRegisterModal
          onRegistered={(card) => {
            setRegistered(true);
            dispatch(cardChosen(card.id));
            // Spec 000 §4: after registering from the payment step the card-select modal opens.
            setModal('select');
          }}
          onClose={() => setModal(null)}
        />
      )}
    </>
  );
}

function GuestCard({ flow }: { flow: FlowContext }) {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [describeCard] = useSetUpCardMutation();
  return (
    <section className="payment-section" aria-labelledby="payment-guest-card-title">
      <h2 id="payment-guest-card-title" className="payment-section__title">
        カード情報の入力
      </h2>
      <p className="field__hint">カード情報は今回のお支払いにのみ使用し、保存しません。</p>
      <CardEntry
        submitLabel="次へ"
        onCard={async ({ paymentMethod, clientSecret }) => {
          // The confirm step names the card by its brand and last digits, which only the provider knows.
          const described = await describeCard(clientSecret).unwrap().catch(() => {
            throw new Error(PAYMENT_MESSAGES.cardInfoFailed);
          });
          const { brand, last4 } = described.card;
          dispatch(guestCardSetUp({ paymentMethod, brand, last4, returnKey: flow.returnKey }));
          await navigate(paths.paymentConfirm.getHref(flow.projectSlug, flow.returnSlug, 1));
        }}
      />
    </section>
  );
}

function CardStep({ flow }: { flow: FlowContext }) {
  return (
    <StripeElements>
      {flow.isMember ? (
        <MemberCards flow={flow} />
      ) : isMonthlyReturn(flow.ret) ? (
        <Notice tone="error">
          <p>{PAYMENT_MESSAGES.monthlyMembersOnly}</p>
        </Notice>
      ) : (
        <GuestCard flow={flow} />
      )}
    </StripeElements>
  );
}

/** Step 3 (`/payment/card/...`): the card to pay with; members pick or register a saved one. */
export function PaymentCard() {
  return (
    <PaymentFlow step={3} backHref={({ project, ret }) => paths.paymentMethod.getHref(project, ret)}>
      {(flow) => (
        <>
          <ReturnSummary project={flow.project} ret={flow.ret} />
          <CardStep flow={flow} />
        </>
      )}
    </PaymentFlow>
  );
}
