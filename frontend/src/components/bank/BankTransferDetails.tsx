import { Phrase } from '@/components/Phrase';
import type { Schemas } from '@/lib/apiTypes';
import { formatJapaneseDate, formatYen } from '@/lib/format';
import { CopyableValue } from './CopyableValue';

/** Spec 001 §9 and docs/decisions.md: the same words as the terms and the commercial notice. */
export const BANK_TRANSFER_FEE_NOTE = '振込手数料はご負担ください。';

/** Where and until when to transfer, as the server sends it (complete page and payment history alike). */
export type BankTransfer = Pick<
  Schemas['BankTransferDto'],
  | 'amountRemaining'
  | 'bankName'
  | 'branchName'
  | 'accountTypeLabel'
  | 'accountNumber'
  | 'accountHolderName'
  | 'reference'
  | 'deadline'
  | 'deadlineText'
>;

/**
 * The bank details of a transfer still awaited (spec 001 §3, §9). What a supporter types into a bank's form by
 * hand (amount, account number, reference, deadline) never breaks across lines and has a copy button; names wrap
 * only between phrases.
 */
export function BankTransferDetails({ bank }: { bank: BankTransfer }) {
  const deadline = bank.deadline ? formatJapaneseDate(bank.deadline) : null;
  return (
    <div className="bank-info" role="group" aria-label="お振込先">
      <dl className="bank-info__list">
        <div>
          <dt>お振込金額</dt>
          <dd>
            <CopyableValue label="お振込金額" value={formatYen(bank.amountRemaining)} />
          </dd>
        </div>
        <div>
          <dt>金融機関</dt>
          <dd>
            <Phrase text={bank.bankName} />
          </dd>
        </div>
        <div>
          <dt>支店</dt>
          <dd>
            <Phrase text={bank.branchName} />
          </dd>
        </div>
        <div>
          <dt>口座種別</dt>
          <dd>{bank.accountTypeLabel}</dd>
        </div>
        <div>
          <dt>口座番号</dt>
          <dd>
            <CopyableValue label="口座番号" value={bank.accountNumber} />
          </dd>
        </div>
        <div>
          <dt>口座名義</dt>
          <dd>
            <Phrase text={bank.accountHolderName} />
          </dd>
        </div>
        {bank.reference && (
          <div>
            <dt>お振込人名の前に付ける番号</dt>
            <dd>
              <CopyableValue label="お振込人名の前に付ける番号" value={bank.reference} />
            </dd>
          </div>
        )}
        <div>
          <dt>お振込期限</dt>
          <dd>{deadline ? <CopyableValue label="お振込期限" value={deadline} /> : bank.deadlineText}</dd>
        </div>
      </dl>
      <p className="bank-info__lead">
        {bank.deadlineText}にお振り込みください。期限を過ぎるとお申し込みが取り消される場合があります。
        {BANK_TRANSFER_FEE_NOTE}
      </p>
    </div>
  );
}
