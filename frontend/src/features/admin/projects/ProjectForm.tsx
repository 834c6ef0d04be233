import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Notice } from '@/components/form/Notice';
import { getApiErrorBody } from '@/lib/apiError';
import { useAdminTaxonomyQuery } from '../api/projectsApi';
import { AdminField, CheckBox, ChoiceGroup } from './fields';
import {
  EMPTY_PROJECT_DRAFT,
  nextDay,
  FUNDING_MODELS,
  PROJECT_FIELD_ALIASES,
  OWNER_EMAIL_MAX,
  PROJECT_FIELDS,
  PROJECT_MESSAGES,
  TAX_HANDLINGS,
  fieldMessagesOf,
  projectDraftOf,
  projectInputOf,
  type FieldMessages,
  type ProjectDraft,
  type ProjectField,
} from './rules';
import type { AdminProject, ProjectInput } from './types';
import '@/components/form/form.css';
// The editor's styles live with the mail form, its first user.
import '../admin-mail.css';

/** The editor (TipTap) is a chunk of its own, loaded when the form opens. */
const RichTextEditor = lazy(() => import(/* webpackChunkName: "rich-text" */ '../components/RichTextEditor'));

const SAVE_FAILED = '保存できませんでした。時間をおいて再度お試しください。';
const LEAD_MAX = 200;

export interface ProjectFormProps {
  /** The project being edited; null for a new one. */
  project: AdminProject | null;
  /** Sends the input; resolves with the saved project, rejects with the server's refusal. */
  onSave: (input: ProjectInput) => Promise<AdminProject>;
  /** Shown politely after a save (and after arriving from the creation). */
  saved?: boolean;
}

/** The project's fields (ProjectInput); fields the server locked after publication are shown disabled. */
export function ProjectForm({ project, onSave, saved: savedBefore = false }: ProjectFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const storyLabelId = useId();
  const [draft, setDraft] = useState<ProjectDraft>(() => (project ? projectDraftOf(project) : EMPTY_PROJECT_DRAFT));
  const [errors, setErrors] = useState<FieldMessages<ProjectField>>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(savedBefore);
  const locked = project?.locked ?? { goal: false, fundingModel: false, taxHandling: false };
  const published = project !== null && project.state !== 'draft';

  // The first refused field takes the focus, so that a keyboard user lands where the message is.
  useEffect(() => {
    const fieldErrors = Object.keys(errors).filter((key) => key !== 'form');
    if (fieldErrors.length === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const set = <K extends keyof ProjectDraft>(key: K, value: ProjectDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setSaved(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setErrors({});
    setSaved(false);
    try {
      const result = await onSave(projectInputOf(draft));
      setDraft(projectDraftOf(result));
      setSaved(true);
    } catch (failure) {
      setErrors(fieldMessagesOf(getApiErrorBody(failure), PROJECT_FIELDS, SAVE_FAILED, PROJECT_FIELD_ALIASES));
    } finally {
      setSaving(false);
    }
  };

  const lockNote = (isLocked: boolean) => (isLocked ? PROJECT_MESSAGES.locked : null);

  return (
    <form ref={formRef} className="form admin-project-form" noValidate onSubmit={submit} aria-label="プロジェクトの内容">
      <div aria-live="polite">{saved && <Notice tone="success"><p>{PROJECT_MESSAGES.saved}</p></Notice>}</div>
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
      <AdminField
        label="URL（/projects/◯◯/ の◯◯）"
        error={errors.slug}
        hint={
          published
            ? '半角英小文字・数字・ハイフン（3〜60文字）。変更すると、これまでのURLは新しいURLへ転送されます。'
            : '半角英小文字・数字・ハイフン（3〜60文字）'
        }
      >
        {({ id, describedBy, invalid }) => (
          <div className="admin-slug">
            <span className="admin-slug__affix" aria-hidden="true">
              /projects/
            </span>
            <input
              id={id}
              className="field__input"
              value={draft.slug}
              maxLength={60}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              inputMode="url"
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('slug', e.target.value)}
            />
            <span className="admin-slug__affix" aria-hidden="true">
              /
            </span>
          </div>
        )}
      </AdminField>
      <AdminField
        label="リード文"
        error={errors.lead}
        hint={`タイトルの下に表示する1段落の紹介文（${LEAD_MAX}文字まで・いま${draft.lead.length}文字）`}
      >
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            className="field__input field__input--textarea admin-lead"
            value={draft.lead}
            maxLength={LEAD_MAX}
            rows={3}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => set('lead', e.target.value)}
          />
        )}
      </AdminField>
      <AdminField label="本文" labelFor={false} labelId={storyLabelId} error={errors.story}>
        {({ describedBy, invalid }) => (
          <Suspense fallback={<p role="status">エディターを読み込み中…</p>}>
            <RichTextEditor
              label="本文"
              value={draft.story}
              describedBy={describedBy}
              invalid={invalid}
              onChange={(story) => set('story', story)}
            />
          </Suspense>
        )}
      </AdminField>
      <AdminField label="目標金額（円）" error={errors.goal} note={lockNote(locked.goal)}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input admin-amount"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={draft.goal}
            disabled={locked.goal}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => set('goal', e.target.value)}
          />
        )}
      </AdminField>
      <AdminField
        label="終了日"
        error={errors.periodEnd}
        hint={
          published
            ? `公開後は延長のみできます（あと${project?.endExtensionsLeft ?? 0}回）。終了日の23:59まで支援を受け付けます。`
            : '終了日の23:59（日本時間）まで支援を受け付けます。'
        }
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input admin-date"
            type="date"
            value={draft.periodEnd}
            min={published ? project?.periodEnd : undefined}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => set('periodEnd', e.target.value)}
          />
        )}
      </AdminField>
      <ChoiceGroup
        legend="実施方式"
        name="funding-model"
        options={FUNDING_MODELS}
        value={draft.fundingModel}
        onChange={(value) => set('fundingModel', value)}
        disabled={locked.fundingModel}
        note={lockNote(locked.fundingModel)}
        error={errors.fundingModel}
      />
      <ChoiceGroup
        legend="税の扱い"
        name="tax-handling"
        options={TAX_HANDLINGS}
        value={draft.taxHandling}
        onChange={(value) => set('taxHandling', value)}
        disabled={locked.taxHandling}
        note={lockNote(locked.taxHandling)}
        error={errors.taxHandling}
      />
      {draft.taxHandling === 'donation' && (
        <AdminField
          label="寄附の支払日"
          error={errors.donationPayoutDate}
          hint="寄附型は、ここで決めた日に実行者へお支払いします（終了日の翌日から1年以内。公開に必要です）。"
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input admin-date"
              type="date"
              value={draft.donationPayoutDate}
              min={nextDay(draft.periodEnd) || undefined}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('donationPayoutDate', e.target.value)}
            />
          )}
        </AdminField>
      )}
      <PaymentMethods draft={draft} error={errors.payment} onChange={set} />
      <Placement draft={draft} errors={errors} onChange={set} />
      <AdminField
        label="プロジェクト実行者のメールアドレス"
        error={errors.ownerEmail}
        hint="募集終了の結果と精算のお知らせを送ります（任意）。"
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            type="email"
            autoComplete="off"
            value={draft.ownerEmail}
            maxLength={OWNER_EMAIL_MAX}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => set('ownerEmail', e.target.value)}
          />
        )}
      </AdminField>
      <div className="form__actions">
        <button type="submit" className="button button--block button--primary" disabled={saving}>
          {saving ? '保存中…' : '保存する'}
        </button>
      </div>
    </form>
  );
}

/** 地域 and カテゴリー: optional selects, filled from the server's lists. */
function Placement({
  draft,
  errors,
  onChange,
}: {
  draft: ProjectDraft;
  errors: FieldMessages<ProjectField>;
  onChange: (key: 'areaId' | 'categoryId', value: string) => void;
}) {
  const { data, isError, refetch } = useAdminTaxonomyQuery();
  const loading = !data && !isError;
  const hint = isError ? (
    <>
      地域とカテゴリーの一覧を読み込めませんでした。{' '}
      <button type="button" className="button button--small" onClick={() => void refetch()}>
        再読み込みする
      </button>
    </>
  ) : (
    'プロジェクト一覧の絞り込みに使います。'
  );
  const select = (
    key: 'areaId' | 'categoryId',
    label: string,
    options: readonly { id: number; name: string }[] | undefined,
  ) => (
    <AdminField label={label} optional error={errors[key]} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          className="field__input"
          value={draft[key]}
          disabled={loading || isError}
          aria-busy={loading || undefined}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(e) => onChange(key, e.target.value)}
        >
          <option value="">{loading ? '読み込み中…' : '選択しない'}</option>
          {options?.map((option) => (
            <option key={option.id} value={String(option.id)}>
              {option.name}
            </option>
          ))}
        </select>
      )}
    </AdminField>
  );
  return (
    <>
      {select('areaId', '地域', data?.areas)}
      {select('categoryId', 'カテゴリー', data?.categories)}
    </>
  );
}

function PaymentMethods({
  draft,
  error,
  onChange,
}: {
  draft: ProjectDraft;
  error: string | undefined;
  onChange: (key: 'acceptsCard' | 'acceptsBankTransfer' | 'acceptsKonbini', value: boolean) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset className="field admin-choices" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">支払い方法</legend>
      <CheckBox
        label="クレジットカード"
        checked={draft.acceptsCard}
        invalid={Boolean(error)}
        onChange={(value) => onChange('acceptsCard', value)}
      />
      <CheckBox
        label="銀行振込"
        checked={draft.acceptsBankTransfer}
        invalid={Boolean(error)}
        onChange={(value) => onChange('acceptsBankTransfer', value)}
      />
      <CheckBox
        label="コンビニ決済"
        checked={draft.acceptsKonbini}
        invalid={Boolean(error)}
        onChange={(value) => onChange('acceptsKonbini', value)}
      />
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
