import { useId, useRef, useState, type FormEvent } from 'react';
import { FormAlert } from '@/components/form/Notice';
import { TextField } from '@/components/form/TextField';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { isBlank, requiredMessage } from '@/lib/validation';
import { useMarkPaidMutation } from '../api/payoutsApi';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatDay, formatYen, tokyoDay } from '../format';
import { confirmMarkPaid, PAYOUT_MESSAGES } from './messages';
import type { Statement } from './types';

type Field = 'paidOn' | 'reference';
type FieldErrors = Partial<Record<Field, string>>;

/** What became of a mark: the page shows it above the form (which leaves once the statement is settled). */
export type MarkOutcome = { tone: 'success'; text: string } | { tone: 'error'; text: string };

const REFERENCE_MAX = 100;

const isField = (field: string): field is Field => field === 'paidOn' || field === 'reference';

/**
 * 支払済みにする: the day of the transfer (today in Tokyo by default) and the bank's reference, confirmed in a
 * dialog with the amount, then posted with the figures of the statement shown (the server refuses with 409 when
 * they changed meanwhile).
 */
export function MarkPaidForm({
  statement,
  onOutcome,
}: {
  statement: Statement;
  onOutcome: (outcome: MarkOutcome | null) => void;
}) {
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [today] = useState(() => tokyoDay(new Date()));
  const [paidOn, setPaidOn] = useState(today);
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [markPaid, { isLoading }] = useMarkPaidMutation();
  const { figures } = statement;

  /** Moves focus to the first field with a message, after it renders. */
  const focusFirstInvalid = () =>
    window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const showErrors = (next: FieldErrors) => {
    setErrors(next);
    if (Object.keys(next).length > 0) focusFirstInvalid();
  };

  const ask = (event: FormEvent) => {
    event.preventDefault();
    onOutcome(null);
    setFormError(null);
    const found: FieldErrors = {};
    if (paidOn === '') found.paidOn = requiredMessage(PAYOUT_MESSAGES.paidOnLabel);
    if (isBlank(reference)) found.reference = requiredMessage(PAYOUT_MESSAGES.referenceLabel);
    showErrors(found);
    if (Object.keys(found).length === 0) setConfirming(true);
  };

  const send = async () => {
    setConfirming(false);
    try {
      await markPaid({
        projectId: statement.projectId,
        input: {
          expectedPayout: figures.payout,
          expectedOwed: figures.owedByOwner,
          paidOn,
          reference: reference.trim(),
        },
      }).unwrap();
      setReference('');
      onOutcome({ tone: 'success', text: PAYOUT_MESSAGES.marked });
    } catch (failure) {
      const body = getApiErrorBody(failure);
      if (body?.error === 'payout_changed') {
        // The statement is read again (the mutation's tags); the operator checks the new figures first.
        onOutcome({ tone: 'error', text: getErrorMessage(failure) });
        return;
      }
      const refused = (body?.errors ?? []).filter((e) => isField(e.field));
      if (refused.length > 0) {
        showErrors(Object.fromEntries(refused.map((e) => [e.field, e.message])));
        return;
      }
      setFormError(getErrorMessage(failure));
    }
  };

  return (
    <section className="statement-form" aria-labelledby={titleId}>
      <h2 id={titleId} className="statement__subtitle">
        {PAYOUT_MESSAGES.markPaidTitle}
      </h2>
      <p className="admin-note">{PAYOUT_MESSAGES.markPaidHelp}</p>
      <form ref={formRef} className="form" noValidate onSubmit={ask}>
        <FormAlert message={formError} />
        <TextField
          label={PAYOUT_MESSAGES.paidOnLabel}
          type="date"
          name="paidOn"
          value={paidOn}
          max={today}
          required
          error={errors.paidOn}
          onChange={(event) => setPaidOn(event.target.value)}
        />
        <TextField
          label={PAYOUT_MESSAGES.referenceLabel}
          name="reference"
          value={reference}
          maxLength={REFERENCE_MAX}
          autoComplete="off"
          required
          hint={PAYOUT_MESSAGES.referenceHint}
          error={errors.reference}
          onChange={(event) => setReference(event.target.value)}
        />
        <div className="form__actions statement-form__actions">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {PAYOUT_MESSAGES.markPaidSubmit}
          </button>
        </div>
      </form>
      {confirming && (
        <ConfirmDialog
          title={PAYOUT_MESSAGES.confirmTitle}
          message={confirmMarkPaid(
            formatYen(figures.payout),
            figures.owedByOwner > 0 ? formatYen(figures.owedByOwner) : null,
            formatDay(paidOn),
          )}
          confirmLabel={PAYOUT_MESSAGES.confirmLabel}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void send()}
        />
      )}
    </section>
  );
}
