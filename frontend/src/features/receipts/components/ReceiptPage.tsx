import { useEffect, useId, useState, type ReactNode } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { FormAlert, Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { useForm } from '@/components/form/useForm';
import { PageLoading } from '@/components/PageLoading';
import { getErrorMessage } from '@/lib/apiError';
import { textRule, validateText } from '@/lib/validation';
import type { SaleReceipt } from '../types';
import { ReceiptSheet } from './ReceiptSheet';

export const RECEIPT_MESSAGES = {
  notFound: 'この領収書は表示できません。',
  notFoundHelp:
    '領収書は、お支払いが完了したご支援についてのみ発行できます。お支払いの確認前や、リンクの有効期限（400日）が過ぎた場合も表示できません。',
  issued: '領収書を発行しました。印刷画面が開かないときは、ブラウザの印刷機能をお使いください。',
  reissueNote: (count: number) =>
    `この領収書はこれまでに${count}回発行されています。次に発行すると「再発行」と記載されます。`,
  addresseeHint: (name: string) =>
    name
      ? `空欄のときは「${name}」様となります。会社名などに変えられます（${textRule('receiptAddressee').maxChars}文字以内）。`
      : `会社名やお名前を入力してください（${textRule('receiptAddressee').maxChars}文字以内）。`,
} as const;

/** Records an issue with the addressee (null: the supporter's name) and answers the receipt as issued. */
export type IssueReceipt = (addressee: string | null) => Promise<SaleReceipt>;

/** What a receipt query gives the page. */
export interface ReceiptQueryState {
  data?: SaleReceipt;
  isLoading: boolean;
  isError: boolean;
  error?: unknown;
  refetch: () => unknown;
}

const isNotFound = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'status' in error && (error as { status: unknown }).status === 404;

/** The addressee form and the button that records an issue, then opens the print dialog. Hidden on paper. */
function IssueForm({ receipt, onIssue }: { receipt: SaleReceipt; onIssue: IssueReceipt }) {
  const headingId = useId();
  const [done, setDone] = useState(false);
  const [printPending, setPrintPending] = useState(false);
  const form = useForm({
    initialValues: { addressee: receipt.addressee },
    validators: { addressee: (value) => validateText('receiptAddressee', value) },
    onSubmit: async ({ addressee }) => {
      setDone(false);
      const typed = addressee.trim();
      const issued = await onIssue(typed === '' ? null : typed);
      form.setValue('addressee', issued.addressee);
      setDone(true);
      setPrintPending(true);
    },
  });

  // The issued receipt (its new title and number) is on the page once this runs: then it goes to the printer.
  useEffect(() => {
    if (!printPending) return;
    setPrintPending(false);
    window.print();
  }, [printPending]);

  return (
    <section className="receipt-page__controls" aria-labelledby={headingId}>
      <h2 id={headingId} className="receipt-page__controls-title">
        宛名を確認して発行する
      </h2>
      <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={form.submitting}>
        <TextField
          label="宛名"
          autoComplete="organization"
          hint={RECEIPT_MESSAGES.addresseeHint(receipt.defaultAddressee)}
          placeholder={receipt.defaultAddressee}
          {...form.field('addressee')}
        />
        <div className="form__actions">
          <SubmitButton {...form.submitButton} busyLabel="発行しています…">
            領収書を発行する
          </SubmitButton>
        </div>
      </form>
      <div aria-live="polite">
        <FormAlert message={form.formError} />
        {done && (
          <Notice tone="success">
            <p>{RECEIPT_MESSAGES.issued}</p>
          </Notice>
        )}
      </div>
      {receipt.issuedCount > 0 && <p className="receipt-page__note">{RECEIPT_MESSAGES.reissueNote(receipt.issuedCount)}</p>}
    </section>
  );
}

/**
 * A receipt page: loading, a receipt that cannot be shown (unknown, someone else's, not paid: one 404), a failed
 * load, or the printable sheet with the addressee form. `back` is a link shown above (not printed).
 */
export function ReceiptPage({
  query,
  onIssue,
  back,
}: {
  query: ReceiptQueryState;
  onIssue: IssueReceipt;
  back?: ReactNode;
}) {
  const titleId = useId();
  const { data, isLoading, isError, error, refetch } = query;
  return (
    <section className="page receipt-page" aria-labelledby={titleId}>
      {back && <p className="receipt-page__back">{back}</p>}
      <h1 id={titleId} className="page__title receipt-page__title">
        領収書
      </h1>
      {isLoading && <PageLoading />}
      {isError && isNotFound(error) && (
        <Notice tone="error">
          <p>{RECEIPT_MESSAGES.notFound}</p>
          <p>{RECEIPT_MESSAGES.notFoundHelp}</p>
        </Notice>
      )}
      {isError && !isNotFound(error) && <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />}
      {data && !isError && (
        <>
          <ReceiptSheet receipt={data} />
          <IssueForm key={data.saleId} receipt={data} onIssue={onIssue} />
        </>
      )}
    </section>
  );
}
