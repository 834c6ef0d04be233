import { useId, useRef, useState, type FormEvent } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { Phrase } from '@/components/Phrase';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import {
  useDeleteManualSponsorMutation,
  useManualSponsorsQuery,
  useMoveManualSponsorMutation,
  useSaveManualSponsorMutation,
} from '../api/contentApi';
import { ActionNotice, type ActionMessage } from '../components/ActionNotice';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatDay, formatYen } from '../format';
import { AdminField } from '../projects/fields';
import { messagesByField } from './rules';
import type { ManualCourse, ManualSponsor, ManualSponsorDraft, ManualSponsors } from './types';

export const SPONSOR_MESSAGES = {
  title: 'スポンサー一覧（手動の名簿）',
  added: 'スポンサーを追加しました。',
  saved: 'スポンサーを保存しました。',
  deleted: 'スポンサーを削除しました。',
  moved: 'スポンサーの並び順を変更しました。',
  saveFailed: 'スポンサーを保存できませんでした。時間をおいて再度お試しください。',
  empty: 'スポンサーはまだ登録されていません。',
  switchedOff:
    '「スポンサー一覧を手動の名簿で表示する」がオフのため、この名簿は公開ページに表示されません。いまは支援から集計したスポンサーが表示されています。オンにするには上の「プロジェクトの設定」で切り替えてください。',
  switchedOn: 'この名簿がプロジェクトページのスポンサー欄に表示されます。変更はすぐに反映されます。',
  order:
    '各コースは金額の大きい順（非公開は最後）、同じ金額なら最新の支援日が早い順に並びます。金額と支援日が同じスポンサーの間では、上へ・下へで並び順を変えられます。',
} as const;

export const COURSES: readonly { value: ManualCourse; label: string }[] = [
  { value: 'A', label: 'Aコース（ロゴ大）' },
  { value: 'B', label: 'Bコース（ロゴ中）' },
  { value: 'C', label: 'Cコース（ロゴ小）' },
  { value: 'supporter', label: '個人サポーター（名前のみ）' },
];

const courseLabel = (course: ManualCourse) => COURSES.find((c) => c.value === course)?.label ?? course;

const emptyDraft: ManualSponsorDraft = { course: 'A', name: '', link: '', amount: '', latestDate: '' };

const draftOf = (s: ManualSponsor): ManualSponsorDraft => ({
  course: s.course,
  name: s.name,
  link: s.link ?? '',
  amount: s.amount === null ? '' : String(s.amount),
  latestDate: s.latestDate ?? '',
});

type Editing = { kind: 'new' } | { kind: 'edit'; sponsor: ManualSponsor } | null;

function SponsorForm({
  list,
  sponsor,
  onSaved,
  onCancel,
}: {
  list: ManualSponsors;
  sponsor: ManualSponsor | null;
  onSaved: (text: string) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const [draft, setDraft] = useState<ManualSponsorDraft>(() => (sponsor ? draftOf(sponsor) : emptyDraft));
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [save, { isLoading }] = useSaveManualSponsorMutation();
  const edit = (next: Partial<ManualSponsorDraft>) => setDraft((d) => ({ ...d, ...next }));
  const withLogo = draft.course !== 'supporter';
  const maxMegabytes = Math.floor(list.limits.maxUploadBytes / (1024 * 1024));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    setErrors({});
    try {
      await save({
        projectId: list.projectId,
        sponsorId: sponsor?.id,
        draft,
        file: withLogo ? file : null,
      }).unwrap();
      onSaved(sponsor ? SPONSOR_MESSAGES.saved : SPONSOR_MESSAGES.added);
    } catch (failure) {
      setErrors(messagesByField(getApiErrorBody(failure), SPONSOR_MESSAGES.saveFailed));
    }
  };

  const known = new Set(['course', 'name', 'link', 'amount', 'latestDate', 'file']);
  const other = Object.entries(errors).filter(([field]) => !known.has(field));

  return (
    <form
      className="form admin-return-form admin-sponsor-form"
      noValidate
      aria-labelledby={titleId}
      aria-busy={isLoading}
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={titleId} className="admin-return-form__title">
        {sponsor ? 'スポンサーを編集' : 'スポンサーを追加'}
      </h3>
      {other.map(([field, message]) => (
        <Notice key={field} tone="error">
          <p>{message}</p>
        </Notice>
      ))}
      <AdminField label="コース" error={errors.course}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            className="field__input"
            value={draft.course}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => edit({ course: e.target.value as ManualCourse })}
          >
            {COURSES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </AdminField>
      <AdminField label="スポンサー名" error={errors.name} hint="企業・団体名、または個人のお名前（100文字以内）">
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            value={draft.name}
            maxLength={100}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => edit({ name: e.target.value })}
          />
        )}
      </AdminField>
      {withLogo && (
        <AdminField
          label="ロゴ画像"
          error={errors.file}
          hint={
            sponsor?.logoSrc
              ? `選択しなければ今のロゴのままです。jpg・png・gif、${maxMegabytes}MBまで。`
              : `A・B・Cコースは必須です。jpg・png・gif、${maxMegabytes}MBまで。`
          }
        >
          {({ id, describedBy, invalid }) => (
            <>
              {sponsor?.logoSrc && (
                <img className="admin-sponsor__logo" src={sponsor.logoSrc} alt={`${sponsor.name}の今のロゴ`} />
              )}
              <input
                id={id}
                type="file"
                className="field__input"
                accept="image/png,image/jpeg,image/gif"
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            </>
          )}
        </AdminField>
      )}
      {!withLogo && errors.file && (
        <p className="field__error" role="alert">
          {errors.file}
        </p>
      )}
      <AdminField label="リンク先" optional error={errors.link} hint="http:// または https:// で始まるURL">
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            type="url"
            className="field__input"
            value={draft.link}
            maxLength={2048}
            inputMode="url"
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => edit({ link: e.target.value })}
          />
        )}
      </AdminField>
      <AdminField
        label="金額（円）"
        optional
        error={errors.amount}
        hint="並び順に使い、公開はしません。空欄は非公開として最後に並びます。"
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            inputMode="numeric"
            value={draft.amount}
            maxLength={10}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => edit({ amount: e.target.value })}
          />
        )}
      </AdminField>
      <AdminField label="最新の支援日" optional error={errors.latestDate} hint="同じ金額のときは早い日付が先に並びます。">
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            type="date"
            className="field__input"
            value={draft.latestDate}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => edit({ latestDate: e.target.value })}
          />
        )}
      </AdminField>
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isLoading}>
          {isLoading ? '保存しています…' : 'スポンサーを保存する'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          キャンセル
        </button>
      </div>
    </form>
  );
}

function SponsorItem({
  sponsor,
  busy,
  onEdit,
  onMove,
  onDelete,
}: {
  sponsor: ManualSponsor;
  busy: boolean;
  onEdit: () => void;
  onMove: (direction: 'up' | 'down') => void;
  onDelete: () => void;
}) {
  const nameId = useId();
  return (
    <li className="admin-return admin-sponsor">
      <article aria-labelledby={nameId}>
        <h4 id={nameId} className="admin-return__title">
          <Phrase text={sponsor.name} />
        </h4>
        {sponsor.logoSrc && <img className="admin-sponsor__logo" src={sponsor.logoSrc} alt={`${sponsor.name}のロゴ`} />}
        <dl className="admin-return__facts">
          <div>
            <dt>金額</dt>
            <dd className="nowrap">{sponsor.amount === null ? '非公開' : formatYen(sponsor.amount)}</dd>
          </div>
          <div>
            <dt>最新の支援日</dt>
            <dd className="nowrap">{sponsor.latestDate ? formatDay(sponsor.latestDate) : 'なし'}</dd>
          </div>
          <div>
            <dt>リンク先</dt>
            <dd className="admin-sponsor__link">{sponsor.link ?? 'なし'}</dd>
          </div>
        </dl>
        <div className="admin-return__actions">
          <button type="button" className="button button--small" aria-label={`${sponsor.name}を編集`} onClick={onEdit}>
            編集
          </button>
          <button
            type="button"
            className="button button--small"
            aria-label={`${sponsor.name}を上へ移動`}
            disabled={busy || !sponsor.canMoveUp}
            onClick={() => onMove('up')}
          >
            上へ移動
          </button>
          <button
            type="button"
            className="button button--small"
            aria-label={`${sponsor.name}を下へ移動`}
            disabled={busy || !sponsor.canMoveDown}
            onClick={() => onMove('down')}
          >
            下へ移動
          </button>
          <button
            type="button"
            className="button button--small button--danger"
            aria-label={`${sponsor.name}を削除`}
            disabled={busy}
            onClick={onDelete}
          >
            削除
          </button>
        </div>
      </article>
    </li>
  );
}

function SponsorList({ list }: { list: ManualSponsors }) {
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ManualSponsor | null>(null);
  const [message, setMessage] = useState<ActionMessage>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [remove, removeState] = useDeleteManualSponsorMutation();
  const [move, moveState] = useMoveManualSponsorMutation();
  const busy = removeState.isLoading || moveState.isLoading;
  const full = list.entries.length >= list.limits.maxEntries;

  const closeForm = () => {
    setEditing(null);
    addButton.current?.focus();
  };

  const run = async (action: () => Promise<unknown>, success: string) => {
    setMessage(null);
    try {
      await action();
      setMessage({ tone: 'success', text: success });
    } catch (error) {
      setMessage({ tone: 'error', text: getErrorMessage(error) });
    }
  };

  return (
    <>
      <p className="admin-note">{list.usesManualSponsors ? SPONSOR_MESSAGES.switchedOn : SPONSOR_MESSAGES.switchedOff}</p>
      <p className="admin-note">{SPONSOR_MESSAGES.order}</p>
      <ActionNotice message={message} />
      {list.entries.length === 0 ? (
        <p className="admin-empty">{SPONSOR_MESSAGES.empty}</p>
      ) : (
        COURSES.map(({ value, label }) => {
          const entries = list.entries.filter((e) => e.course === value);
          if (entries.length === 0) return null;
          return (
            <div key={value} className="admin-sponsor-course">
              <h3 className="admin-sponsor-course__title">{label}</h3>
              <ol className="admin-return-list" aria-label={`${label}（表示順）`}>
                {entries.map((sponsor) => (
                  <SponsorItem
                    key={sponsor.id}
                    sponsor={sponsor}
                    busy={busy}
                    onEdit={() => {
                      setMessage(null);
                      setEditing({ kind: 'edit', sponsor });
                    }}
                    onMove={(direction) =>
                      void run(
                        () => move({ projectId: list.projectId, sponsorId: sponsor.id, direction }).unwrap(),
                        SPONSOR_MESSAGES.moved,
                      )
                    }
                    onDelete={() => setDeleting(sponsor)}
                  />
                ))}
              </ol>
            </div>
          );
        })
      )}
      <button
        type="button"
        ref={addButton}
        className="button button--block"
        disabled={full}
        onClick={() => {
          setMessage(null);
          setEditing({ kind: 'new' });
        }}
      >
        スポンサーを追加
      </button>
      {full && <p className="admin-note">スポンサーは{list.limits.maxEntries}件までです。</p>}
      {editing && (
        <SponsorForm
          key={editing.kind === 'edit' ? editing.sponsor.id : 'new'}
          list={list}
          sponsor={editing.kind === 'edit' ? editing.sponsor : null}
          onSaved={(text) => {
            setMessage({ tone: 'success', text });
            closeForm();
          }}
          onCancel={closeForm}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="スポンサーの削除"
          message={`「${deleting.name}」をスポンサー一覧から削除します。よろしいですか？`}
          confirmLabel="削除する"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const target = deleting;
            setDeleting(null);
            void run(async () => {
              await remove({ projectId: list.projectId, sponsorId: target.id }).unwrap();
              addButton.current?.focus();
            }, SPONSOR_MESSAGES.deleted);
          }}
        />
      )}
    </>
  );
}

/** `スポンサー一覧（手動の名簿）`: the manual sponsor list, course by course in the walls' order. */
export function Sponsors({ projectId }: { projectId: number }) {
  const titleId = useId();
  const { data, isError, error, refetch } = useManualSponsorsQuery(projectId);
  let body;
  if (data) {
    body = <SponsorList list={data} />;
  } else if (isError) {
    body = <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  } else {
    body = <p role="status">読み込み中…</p>;
  }
  return (
    <section className="admin-section admin-sponsors" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        {SPONSOR_MESSAGES.title}
      </h2>
      {body}
    </section>
  );
}
