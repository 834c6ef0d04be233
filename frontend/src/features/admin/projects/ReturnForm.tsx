import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Notice } from '@/components/form/Notice';
import { getApiErrorBody } from '@/lib/apiError';
import { AdminField, CheckBox, ChoiceGroup } from './fields';
import {
  EMPTY_RETURN_DRAFT,
  PROJECT_MESSAGES,
  RETURN_FIELDS,
  RETURN_TYPES,
  fieldMessagesOf,
  returnDraftOf,
  returnInputOf,
  type FieldMessages,
  type ReturnDraft,
  type ReturnField,
} from './rules';
import type { AdminReturn, ReturnInput } from './types';

const SAVE_FAILED = 'リターンを保存できませんでした。時間をおいて再度お試しください。';

const INTERVALS = [
  { value: 'once', label: '1回のみ' },
  { value: 'month', label: '毎月（月額支援）' },
] as const;

export interface ReturnFormProps {
  /** The return being edited; null for a new one. */
  ret: AdminReturn | null;
  onSave: (input: ReturnInput) => Promise<unknown>;
  onCancel: () => void;
}

/** A return's fields (ReturnInput), in a section of its own under the list; a backed return keeps price and type. */
export function ReturnForm({ ret, onSave, onCancel }: ReturnFormProps) {
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<ReturnDraft>(() => (ret ? returnDraftOf(ret) : EMPTY_RETURN_DRAFT));
  const [errors, setErrors] = useState<FieldMessages<ReturnField>>({});
  const [saving, setSaving] = useState(false);
  const backed = ret?.backed ?? false;
  const backedNote = backed ? PROJECT_MESSAGES.backedLocked : null;

  // The form opens where the reader is going next.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  useEffect(() => {
    if (Object.keys(errors).some((key) => key !== 'form')) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [errors]);

  const set = <K extends keyof ReturnDraft>(key: K, value: ReturnDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setErrors({});
    try {
      await onSave(returnInputOf(draft));
    } catch (failure) {
      setErrors(fieldMessagesOf(getApiErrorBody(failure), RETURN_FIELDS, SAVE_FAILED));
      setSaving(false);
    }
  };

  const heading = ret ? 'リターンを編集' : 'リターンを追加';
  return (
    <section className="admin-return-form" aria-labelledby={titleId}>
      <h3 id={titleId} ref={headingRef} tabIndex={-1} className="admin-return-form__title">
        {heading}
        {ret && <span className="admin-return-form__subtitle">「{ret.title}」</span>}
      </h3>
      <form ref={formRef} className="form" noValidate onSubmit={submit} aria-labelledby={titleId}>
        {errors.form && (
          <Notice tone="error">
            <p>{errors.form}</p>
          </Notice>
        )}
        <AdminField label="タイトル" error={errors.title}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input"
              value={draft.title}
              maxLength={100}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('title', e.target.value)}
            />
          )}
        </AdminField>
        <AdminField label="内容" error={errors.description} hint="お届けするものと、そのお届け方法を書いてください。">
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              className="field__input field__input--textarea"
              value={draft.description}
              maxLength={2000}
              rows={5}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('description', e.target.value)}
            />
          )}
        </AdminField>
        <AdminField label="金額（円）" error={errors.price} note={backedNote}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input admin-amount"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              value={draft.price}
              disabled={backed}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('price', e.target.value)}
            />
          )}
        </AdminField>
        <AdminField label="種類" error={errors.returnType} note={backedNote}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              className="field__input"
              value={draft.returnType}
              disabled={backed}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('returnType', Number(e.target.value))}
            >
              {RETURN_TYPES.map((type) => (
                <option key={type.value} value={type.value}>
                  {type.label}
                </option>
              ))}
            </select>
          )}
        </AdminField>
        <ChoiceGroup
          legend="支払い"
          name="interval"
          options={INTERVALS}
          value={draft.monthly ? 'month' : 'once'}
          onChange={(value) => set('monthly', value === 'month')}
          disabled={backed}
          note={backedNote}
          error={errors.monthly}
        />
        <AdminField
          label="在庫数"
          optional
          error={errors.stockLimit}
          hint={
            draft.monthly
              ? '月額リターンは毎月の支援を数えるため、在庫数は設定できません（無制限）。'
              : `空欄の場合は無制限です。${ret && ret.lotsTaken > 0 ? `支援済みの数（${ret.lotsTaken}）より少なくはできません。` : ''}`
          }
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input admin-amount"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              disabled={draft.monthly}
              value={draft.monthly ? '' : draft.stockLimit}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('stockLimit', e.target.value)}
            />
          )}
        </AdminField>
        <CheckBox label="口数を1に固定" checked={draft.lotFixed} onChange={(value) => set('lotFixed', value)} />
        <CheckBox
          label="配送先住所が必要"
          checked={draft.addressRequired}
          onChange={(value) => set('addressRequired', value)}
        />
        {draft.addressRequired && (
          <AdminField label="住所欄の見出し" error={errors.addressLabel} hint="支援の手続きで住所欄の上に表示します。例：お届け先">
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="field__input"
                value={draft.addressLabel}
                maxLength={50}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => set('addressLabel', e.target.value)}
              />
            )}
          </AdminField>
        )}
        <CheckBox label="受付を停止する" checked={draft.disabled} onChange={(value) => set('disabled', value)} />
        {draft.disabled && (
          <AdminField
            label="停止中の表示文"
            optional
            error={errors.disabledComment}
            hint="公開ページでリターンの下に表示します。例：準備が整いしだい再開します"
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="field__input"
                value={draft.disabledComment}
                maxLength={100}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => set('disabledComment', e.target.value)}
              />
            )}
          </AdminField>
        )}
        <CheckBox label="非表示にする" checked={draft.hidden} onChange={(value) => set('hidden', value)} />
        <AdminField label="お届け予定月" optional error={errors.deliveryMonth}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input admin-date"
              type="month"
              value={draft.deliveryMonth}
              placeholder="2027-03"
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('deliveryMonth', e.target.value)}
            />
          )}
        </AdminField>
        <AdminField label="コース" optional error={errors.course} hint="公開ページで「コースA」のように表示します。例：A">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input"
              value={draft.course}
              maxLength={20}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('course', e.target.value)}
            />
          )}
        </AdminField>
        <AdminField
          label="公開先のメールアドレス"
          optional
          error={errors.onlyFor}
          hint="入力すると、このアドレスでログインした会員にだけ表示します。空欄の場合は全員に表示します。"
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input"
              type="email"
              autoComplete="off"
              value={draft.onlyFor}
              maxLength={254}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('onlyFor', e.target.value)}
            />
          )}
        </AdminField>
        <div className="form__actions">
          <button type="submit" className="button button--block button--primary" disabled={saving}>
            {saving ? '保存中…' : 'リターンを保存する'}
          </button>
          <button type="button" className="button button--block" onClick={onCancel}>
            キャンセル
          </button>
        </div>
      </form>
    </section>
  );
}
