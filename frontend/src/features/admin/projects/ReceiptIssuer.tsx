import { useId, useState, type FormEvent } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { textRule } from '@/lib/validation';
import { useReceiptIssuerQuery, useSetReceiptIssuerMutation } from '../api/projectsApi';
import { formatInstant } from '../format';
import { AdminField } from './fields';
import {
  PROJECT_MESSAGES,
  RECEIPT_ISSUER_FIELDS,
  fieldMessagesOf,
  oneLine,
  type FieldMessages,
  type ReceiptIssuerField,
} from './rules';
import type { ReceiptIssuerSettings } from './types';

const SAVE_FAILED = '領収書の発行者を保存できませんでした。時間をおいて再度お試しください。';
const ISSUER_NAME_MAX = textRule('receiptIssuerName').maxChars;

/** The form, started from the stored issuer. */
function IssuerForm({ projectId, issuer }: { projectId: number; issuer: ReceiptIssuerSettings }) {
  const [name, setName] = useState(issuer.issuerName ?? '');
  const [number, setNumber] = useState(issuer.registrationNumber ?? '');
  const [errors, setErrors] = useState<FieldMessages<ReceiptIssuerField>>({});
  const [saved, setSaved] = useState(false);
  const [save, { isLoading }] = useSetReceiptIssuerMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    setErrors({});
    setSaved(false);
    try {
      const answer = await save({
        projectId,
        input: { issuerName: name.trim(), registrationNumber: number.trim() === '' ? null : number.trim() },
      }).unwrap();
      setName(answer.issuerName ?? '');
      setNumber(answer.registrationNumber ?? '');
      setSaved(true);
    } catch (failure) {
      setErrors(fieldMessagesOf(getApiErrorBody(failure), RECEIPT_ISSUER_FIELDS, SAVE_FAILED));
    }
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)} aria-busy={isLoading}>
      {errors.form && (
        <Notice tone="error">
          <p>{errors.form}</p>
        </Notice>
      )}
      <AdminField
        label="発行者名"
        error={errors.issuerName}
        hint={`領収書に記載するプロジェクト実行者の名称（${ISSUER_NAME_MAX}文字以内）。`}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            value={name}
            maxLength={ISSUER_NAME_MAX}
            autoComplete="organization"
            required
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => {
              setName(oneLine(e.target.value));
              setSaved(false);
            }}
          />
        )}
      </AdminField>
      <AdminField
        label="登録番号"
        optional
        error={errors.registrationNumber}
        hint="適格請求書発行事業者の登録番号（Tと13桁の数字）。登録していない場合は空欄にします。"
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            value={number}
            inputMode="text"
            autoComplete="off"
            placeholder="T1234567890123"
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => {
              setNumber(oneLine(e.target.value));
              setSaved(false);
            }}
          />
        )}
      </AdminField>
      <div className="form__actions">
        {/* The page has another 保存する (the project's contents): this one says what it saves. */}
        <button type="submit" className="button button--primary" disabled={isLoading} aria-label="領収書の発行者を保存する">
          {isLoading ? '保存しています…' : '保存する'}
        </button>
      </div>
      <div aria-live="polite">
        {saved && (
          <Notice tone="success">
            <p>{PROJECT_MESSAGES.receiptIssuerSaved}</p>
          </Notice>
        )}
      </div>
    </form>
  );
}

/**
 * `領収書の発行者`: the project owner's name and registration number that the supporters' receipts print. Without
 * them, receipts name the site's operator as receiving the money on the owner's behalf, with no registration number.
 */
export function ReceiptIssuer({ projectId }: { projectId: number }) {
  const titleId = useId();
  const { data, isError, error, refetch } = useReceiptIssuerQuery(projectId);
  let body;
  if (data) {
    body = (
      <>
        <p className="admin-note">
          {data.issuerName === null
            ? '未設定です。領収書には運営者が実行者に代わって受領した旨が記載され、登録番号は記載されません。'
            : `最終更新：${data.updatedAt ? formatInstant(data.updatedAt) : '—'}`}
        </p>
        <IssuerForm key={projectId} projectId={projectId} issuer={data} />
      </>
    );
  } else if (isError) {
    body = <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  } else {
    body = <p role="status">読み込み中…</p>;
  }
  return (
    <section className="admin-section admin-receipt-issuer" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        領収書の発行者
      </h2>
      {body}
    </section>
  );
}
