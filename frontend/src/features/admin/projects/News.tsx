import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { useAdminNewsQuery, useDeleteNewsMutation, useSaveNewsMutation } from '../api/projectsApi';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatInstant } from '../format';
import { AdminField } from './fields';
import { fieldMessagesOf, type FieldMessages } from './rules';
import type { AdminNews, AdminProject, NewsInput } from './types';
import { ActionNotice, type ActionMessage } from '../components/ActionNotice';

const RichTextEditor = lazy(() => import(/* webpackChunkName: "rich-text" */ '../components/RichTextEditor'));

export const NEWS_TITLE_MAX = 100;

export const NEWS_MESSAGES = {
  empty: '活動報告はまだありません。',
  saved: '活動報告を保存しました。',
  published: '活動報告を公開しました。',
  scheduled: '活動報告の公開を予約しました。',
  mailed: '支援者へのメールを送信予約しました。',
  deleted: '活動報告を削除しました。',
  titleRequired: 'タイトルを入力してください。',
  dateRequired: '公開する日時を入力してください。',
  failed: '活動報告を保存できませんでした。時間をおいて再度お試しください。',
} as const;

type NewsField = 'title' | 'body' | 'returnIds' | 'publishAt';
const NEWS_FIELDS: readonly NewsField[] = ['title', 'body', 'returnIds', 'publishAt'];

/** How the item is saved: a draft, public now, or public from a set time (Asia/Tokyo). */
export type Publication = 'draft' | 'now' | 'at';

export interface NewsDraft {
  title: string;
  body: string;
  audience: 'public' | 'supporters';
  returnIds: number[];
  publication: Publication;
  /** `YYYY-MM-DDTHH:mm`, Tokyo time. */
  publishAt: string;
  mailSupporters: boolean;
}

const EMPTY: NewsDraft = {
  title: '',
  body: '',
  audience: 'public',
  returnIds: [],
  publication: 'now',
  publishAt: '',
  mailSupporters: false,
};

/** `2026-12-01T12:00:00+09:00` -> `2026-12-01T12:00` (the server answers in Tokyo time). */
const localOf = (iso: string | null): string => (iso ? iso.slice(0, 16) : '');

export const draftOf = (news: AdminNews): NewsDraft => ({
  title: news.title,
  body: news.body,
  audience: news.audience,
  returnIds: news.returnIds,
  publication: news.state === 'draft' ? 'draft' : news.state === 'scheduled' ? 'at' : 'now',
  publishAt: news.state === 'scheduled' ? localOf(news.publishedAt) : '',
  mailSupporters: news.mailSupporters,
});

/** What the form sends: a set time is Tokyo time; "now" keeps the time of an item already public. */
export const inputOf = (draft: NewsDraft): NewsInput => ({
  title: draft.title.trim(),
  body: draft.body,
  audience: draft.audience,
  returnIds: draft.audience === 'supporters' ? draft.returnIds : [],
  publish: draft.publication !== 'draft',
  publishAt: draft.publication === 'at' && draft.publishAt ? `${draft.publishAt}:00+09:00` : null,
  mailSupporters: draft.mailSupporters,
});

const SAVE_LABEL: Record<Publication, string> = { draft: '下書きを保存', now: '公開する', at: '公開を予約する' };

function stateBadge(news: AdminNews) {
  if (news.state === 'draft') return <span className="admin-badge admin-badge--muted">下書き</span>;
  if (news.state === 'scheduled') {
    return (
      <span className="admin-badge admin-badge--info">
        公開予約 {news.publishedAt ? formatInstant(news.publishedAt) : ''}
      </span>
    );
  }
  return <span className="admin-badge admin-badge--info">公開中</span>;
}

function NewsForm({
  project,
  news,
  onDone,
  onCancel,
}: {
  project: AdminProject;
  news: AdminNews | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const bodyLabelId = useId();
  const [draft, setDraft] = useState<NewsDraft>(news ? draftOf(news) : EMPTY);
  const [errors, setErrors] = useState<FieldMessages<NewsField>>({});
  const [save, { isLoading }] = useSaveNewsMutation();
  const mailed = news?.mailQueuedAt ?? null;
  const set = <K extends keyof NewsDraft>(key: K, value: NewsDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    const local: FieldMessages<NewsField> = {};
    if (!draft.title.trim()) local.title = NEWS_MESSAGES.titleRequired;
    if (draft.publication === 'at' && !draft.publishAt) local.publishAt = NEWS_MESSAGES.dateRequired;
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      const saved = await save({ projectId: project.id, newsId: news?.id ?? null, input: inputOf(draft) }).unwrap();
      const message =
        saved.state === 'published'
          ? NEWS_MESSAGES.published
          : saved.state === 'scheduled'
            ? NEWS_MESSAGES.scheduled
            : NEWS_MESSAGES.saved;
      onDone(saved.mailQueuedAt && !mailed ? `${message}${NEWS_MESSAGES.mailed}` : message);
    } catch (failure) {
      setErrors(fieldMessagesOf(getApiErrorBody(failure), NEWS_FIELDS, NEWS_MESSAGES.failed));
    }
  };

  const toggleReturn = (id: number, on: boolean) =>
    set('returnIds', on ? [...draft.returnIds, id] : draft.returnIds.filter((r) => r !== id));

  return (
    <form className="admin-news-form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <h3 id={titleId} className="admin-section__subtitle">
        {news ? '活動報告の編集' : '新しい活動報告'}
      </h3>
      {errors.form && (
        <Notice tone="error">
          <p>{errors.form}</p>
        </Notice>
      )}
      <AdminField label="タイトル" error={errors.title} hint={`${NEWS_TITLE_MAX}文字以内`}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            value={draft.title}
            maxLength={NEWS_TITLE_MAX}
            required
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => set('title', e.target.value)}
          />
        )}
      </AdminField>
      <AdminField label="本文" labelFor={false} labelId={bodyLabelId} error={errors.body}>
        {({ describedBy, invalid }) => (
          <Suspense fallback={<p role="status">エディターを読み込み中…</p>}>
            <RichTextEditor
              label="本文"
              value={draft.body}
              describedBy={describedBy}
              invalid={invalid}
              onChange={(body) => set('body', body)}
            />
          </Suspense>
        )}
      </AdminField>
      <fieldset className="field admin-news-form__choice">
        <legend className="field__label">公開範囲</legend>
        <label className="admin-choice">
          <input
            type="radio"
            name={`${titleId}-audience`}
            checked={draft.audience === 'public'}
            onChange={() => set('audience', 'public')}
          />
          全員に公開
        </label>
        <label className="admin-choice">
          <input
            type="radio"
            name={`${titleId}-audience`}
            checked={draft.audience === 'supporters'}
            onChange={() => set('audience', 'supporters')}
          />
          支援者のみ（それ以外の方にはタイトルだけを表示します）
        </label>
      </fieldset>
      {draft.audience === 'supporters' && project.returns.length > 0 && (
        <fieldset className="field admin-news-form__choice">
          <legend className="field__label">読めるリターン（選ばないときは、すべての支援者）</legend>
          {project.returns.map((r) => (
            <label key={r.id} className="admin-choice">
              <input
                type="checkbox"
                checked={draft.returnIds.includes(r.id)}
                onChange={(e) => toggleReturn(r.id, e.target.checked)}
              />
              {r.title}
            </label>
          ))}
          {errors.returnIds && (
            <p className="field__error" role="alert">
              {errors.returnIds}
            </p>
          )}
        </fieldset>
      )}
      <fieldset className="field admin-news-form__choice">
        <legend className="field__label">公開</legend>
        {(['draft', 'now', 'at'] as const).map((choice) => (
          <label key={choice} className="admin-choice">
            <input
              type="radio"
              name={`${titleId}-publication`}
              checked={draft.publication === choice}
              onChange={() => set('publication', choice)}
            />
            {{ draft: '下書き', now: news?.state === 'published' ? '公開中のまま' : 'すぐに公開', at: '日時を指定して公開' }[choice]}
          </label>
        ))}
      </fieldset>
      {draft.publication === 'at' && (
        <AdminField label="公開する日時（日本時間）" error={errors.publishAt}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="datetime-local"
              className="field__input"
              value={draft.publishAt}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => set('publishAt', e.target.value)}
            />
          )}
        </AdminField>
      )}
      <div className="field">
        <label className="admin-choice">
          <input
            type="checkbox"
            checked={draft.mailSupporters}
            disabled={mailed !== null}
            onChange={(e) => set('mailSupporters', e.target.checked)}
          />
          支援者にメールで知らせる
        </label>
        <p className="field__hint">
          {mailed
            ? `メールは${formatInstant(mailed)}に送信予約済みです（1つの活動報告につき1回だけ送ります）。`
            : '公開されたときに1回だけ、読める支援者に送ります。配信を停止した方には送りません。'}
        </p>
      </div>
      <div className="refund-confirm__actions">
        <button type="button" className="button" onClick={onCancel}>
          キャンセル
        </button>
        <button type="submit" className="button button--primary" disabled={isLoading}>
          {isLoading ? '保存しています…' : SAVE_LABEL[draft.publication]}
        </button>
      </div>
    </form>
  );
}

/** `活動報告`: the project's news, newest first; write, schedule, publish, edit and delete. */
export function News({ project }: { project: AdminProject }) {
  const titleId = useId();
  const { data: news, isError, error, refetch } = useAdminNewsQuery(project.id);
  const [editing, setEditing] = useState<AdminNews | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminNews | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [remove] = useDeleteNewsMutation();

  const confirmDelete = async (item: AdminNews) => {
    setDeleting(null);
    try {
      await remove({ projectId: project.id, newsId: item.id }).unwrap();
      setMessage({ tone: 'success', text: NEWS_MESSAGES.deleted });
    } catch (failure) {
      setMessage({ tone: 'error', text: getErrorMessage(failure) });
    }
  };

  let body;
  if (news) {
    body =
      news.length === 0 ? (
        <p className="admin-empty">{NEWS_MESSAGES.empty}</p>
      ) : (
        <ol className="admin-news-list" aria-label="活動報告（新しい順）">
          {news.map((item) => (
            <li key={item.id} className="admin-news">
              <h3 className="admin-news__title">{item.title}</h3>
              <p className="admin-news__state">
                {stateBadge(item)}
                {item.audience === 'supporters' && <span className="admin-badge admin-badge--muted">支援者限定</span>}
                {item.mailQueuedAt && <span className="admin-badge admin-badge--muted">メール送信済み</span>}
              </p>
              <div className="admin-comment__actions">
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`「${item.title}」を編集`}
                  onClick={() => {
                    setMessage(null);
                    setEditing(item);
                  }}
                >
                  編集
                </button>
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`「${item.title}」を削除`}
                  onClick={() => setDeleting(item)}
                >
                  削除
                </button>
              </div>
            </li>
          ))}
        </ol>
      );
  } else if (isError) {
    body = <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  } else {
    body = <p role="status">活動報告を読み込み中…</p>;
  }

  return (
    <section className="admin-section admin-news-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        活動報告
      </h2>
      <ActionNotice message={message} />
      {editing === null ? (
        <p>
          <button
            type="button"
            className="button"
            onClick={() => {
              setMessage(null);
              setEditing('new');
            }}
          >
            活動報告を書く
          </button>
        </p>
      ) : (
        <NewsForm
          key={editing === 'new' ? 'new' : editing.id}
          project={project}
          news={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onDone={(text) => {
            setEditing(null);
            setMessage({ tone: 'success', text });
          }}
        />
      )}
      {body}
      {deleting && (
        <ConfirmDialog
          title="活動報告を削除"
          message={`「${deleting.title}」を削除します。公開ページからも消えます。送信予約済みのメールは取り消されません。`}
          confirmLabel="削除する"
          onConfirm={() => void confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
