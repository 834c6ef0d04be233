import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { paths } from '@/config/paths';
import type { PaymentTypeCode } from '../api/types';
import { PaymentFlow, type FlowContext } from '../components/PaymentFlow';
import { ReturnSummary } from '../components/ReturnSummary';
import { isMonthlyReturn, PAYMENT_MESSAGES } from '../messages';

const METHOD_LABELS: Record<PaymentTypeCode, { label: string; hint: string }> = {
  1: { label: 'クレジットカード', hint: 'Visa / MasterCard / American Express / JCB / Diners Club / Discover' },
  2: { label: '銀行振込', hint: 'お申し込み後にご案内する口座へお振り込みください（振込手数料はご負担ください）。' },
  3: {
    label: 'コンビニ決済',
    hint: 'ファミリーマート・ローソン・ミニストップ・セイコーマートで、お申し込みの3日後の23:59までに現金でお支払いください。',
  },
};

function MethodForm({ flow }: { flow: FlowContext }) {
  const navigate = useNavigate();
  const monthly = isMonthlyReturn(flow.ret);
  // A monthly support is charged to a saved card every month: no bank transfer, no konbini.
  const accepted = flow.project.paymentTypes.filter((type): type is PaymentTypeCode => type === 1 || !monthly);
  // Methods the project takes but not today, with the server's reason (a voucher would outlive the project).
  const unavailable = monthly ? [] : flow.project.unavailablePaymentTypes;
  const [choice, setChoice] = useState<PaymentTypeCode | null>(accepted.length === 1 ? accepted[0]! : null);

  const reasons = unavailable.length > 0 && (
    <Notice tone="info">
      {unavailable.map((u) => (
        <p key={u.paymentType}>{u.message}</p>
      ))}
    </Notice>
  );

  if (accepted.length === 0) {
    return (
      <>
        {reasons}
        <Notice tone="error">
          <p>{PAYMENT_MESSAGES.noPaymentType}</p>
        </Notice>
      </>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (choice === 1) void navigate(paths.paymentCard.getHref(flow.projectSlug, flow.returnSlug));
    if (choice === 2 || choice === 3) {
      void navigate(paths.paymentConfirm.getHref(flow.projectSlug, flow.returnSlug, choice));
    }
  };

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      {monthly && <p className="field__hint">{PAYMENT_MESSAGES.monthlyCardOnly}</p>}
      {reasons}
      <fieldset className="payment-choice">
        <legend>お支払い方法を選択してください</legend>
        {accepted.map((type) => (
          <label key={type}>
            <input
              type="radio"
              name="paymentType"
              value={type}
              checked={choice === type}
              onChange={() => setChoice(type)}
            />
            <span>
              {METHOD_LABELS[type].label}
              <span className="field__hint payment-choice__hint">
                {METHOD_LABELS[type].hint}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="form__actions">
        <SubmitButton busy={false} disabled={choice === null}>
          次へ
        </SubmitButton>
      </div>
    </form>
  );
}

/** Step 2 (`/payment/method/...`): only the methods the project accepts. */
export function PaymentMethod() {
  const { state } = useLocation() as { state: { notice?: string } | null };
  return (
    <PaymentFlow step={2} backHref={({ project, ret }) => paths.paymentInfo.getHref(project, ret)}>
      {(flow) => (
        <>
          {state?.notice && (
            <Notice tone="info">
              <p>{state.notice}</p>
            </Notice>
          )}
          <ReturnSummary project={flow.project} ret={flow.ret} />
          <MethodForm flow={flow} />
        </>
      )}
    </PaymentFlow>
  );
}
