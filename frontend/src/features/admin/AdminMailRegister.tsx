import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FieldFrame, TextField } from '@/components/form/TextField';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { getApiErrorBody } from '@/lib/apiError';
import { useMailPreviewQuery, useMailProjectsQuery, useRegisterMailMutation } from './api/mailApi';
import { MAIL_MESSAGES, MailSending } from './components/MailProgress';
import './admin-mail.css';

/** The editor (TipTap) is a chunk of its own, loaded when the form opens. */
const RichTextEditor = lazy(() => import(/* webpackChunkName: "rich-text" */ './components/RichTextEditor'));

/** The select's value for "every member". */
const EVERYONE = '';

interface Draft {
  project: string;
  title: string;
  content: string;
}

const EMPTY_DRAFT: Draft = { project: EVERYONE, title: '', content: '' };

/** Visible text of the editor's HTML (an empty paragraph is no content). */
const textOf = (html: string) => {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').trim();
};

/** Spec 001 §5: title and body required; the project id goes to the server as a number. */
export const validateDraft = (draft: Draft) => ({
  title: draft.title.trim() === '' ? MAIL_MESSAGES.titleRequired : null,
  content: textOf(draft.content) === '' && !draft.content.includes('<img') ? MAIL_MESSAGES.contentRequired : null,
});

export const projectIdOf = (value: string): number | null => (value === EVERYONE ? null : Number(value));

type Step = 'edit' | 'confirm';

export function AdminMailRegister() {
  const [params, setParams] = useSearchParams();
  const sendingId = Number(params.get('sending')) || null;
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [step, setStep] = useState<Step>('edit');
  const [errors, setErrors] = useState<{ title: string | null; content: string | null }>({ title: null, content: null });
  const [failure, setFailure] = useState<string | null>(null);
  const projects = useMailProjectsQuery();
  const projectId = projectIdOf(draft.project);
  const preview = useMailPreviewQuery({ projectId });
  const [register, { isLoading: sending }] = useRegisterMailMutation();

  const projectTitle =
    projectId === null ? null : projects.data?.find((p) => p.id === projectId)?.title ?? `プロジェクト ${projectId}`;
  const audience = projectTitle === null ? '全会員' : `「${projectTitle}」の支援者`;

  const toConfirm = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validateDraft(draft);
    setErrors(found);
    if (found.title || found.content) return;
    setStep('confirm');
    window.scrollTo(0, 0);
  };

  const send = async () => {
    setFailure(null);
    try {
      const result = await register({ projectId, title: draft.title.trim(), content: draft.content }).unwrap();
      // The form resets after success (spec 001 §2); the progress follows the job, also after a reload.
      setDraft(EMPTY_DRAFT);
      setErrors({ title: null, content: null });
      setStep('edit');
      setParams({ sending: String(result.id) });
    } catch (error) {
      const body = getApiErrorBody(error);
      const fieldErrors = body?.errors ?? [];
      if (fieldErrors.length > 0) {
        setErrors({
          title: fieldErrors.find((e) => e.field === 'title')?.message ?? null,
          content: fieldErrors.find((e) => e.field === 'content')?.message ?? null,
        });
        setStep('edit');
      }
      const reason = body?.message && body.error !== 'validation_failed' ? `（${body.message}）` : '';
      setFailure(`${MAIL_MESSAGES.failed}${reason}`);
    }
  };

  return (
    <section className="page page--admin admin-mail" aria-labelledby="admin-mail-register-title">
      <p className="admin-mail__back">
        <Link to={paths.adminMail.getHref()}>送信メール一覧へ</Link>
      </p>
      <h1 id="admin-mail-register-title">メールの作成</h1>
      {/* One follower per mail: a second mail sent from this page is followed from its start. */}
      {sendingId !== null && <MailSending key={sendingId} id={sendingId} />}
      <div aria-live="assertive">
        {failure && (
          <Notice tone="error">
            <p>{failure}</p>
          </Notice>
        )}
      </div>
      {step === 'edit' ? (
        <form className="form" noValidate onSubmit={toConfirm} aria-label="メールの作成">
          <div className="field">
            <label className="field__label" htmlFor="mail-project">
              送信先
            </label>
            <select
              id="mail-project"
              className="field__input"
              value={draft.project}
              onChange={(e) => setDraft({ ...draft, project: e.target.value })}
            >
              <option value={EVERYONE}>全会員（配信停止の会員を除く）</option>
              {(projects.data ?? []).map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.title} の支援者
                </option>
              ))}
            </select>
            <p className="field__hint" role="status">
              {preview.isFetching
                ? '送信先の件数を確認中…'
                : preview.isError
                  ? '送信先の件数を確認できませんでした。'
                  : `送信予定：${preview.data ?? 0}件`}
            </p>
          </div>
          <TextField
            label="タイトル"
            value={draft.title}
            maxLength={200}
            error={errors.title}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          />
          <FieldFrame label={<span id="mail-content-label">本文</span>} error={errors.content}>
            {({ describedBy, invalid }) => (
              <Suspense fallback={<p role="status">エディターを読み込み中…</p>}>
                <RichTextEditor
                  label="本文"
                  value={draft.content}
                  describedBy={describedBy}
                  invalid={invalid}
                  onChange={(content) => setDraft((d) => ({ ...d, content }))}
                />
              </Suspense>
            )}
          </FieldFrame>
          <div className="form__actions">
            <button type="submit" className="button button--block button--primary">
              確認画面へ
            </button>
          </div>
        </form>
      ) : (
        <section className="admin-mail__confirm" aria-labelledby="admin-mail-confirm-title">
          <h2 id="admin-mail-confirm-title">送信内容の確認</h2>
          <dl className="admin-mail__facts">
            <dt>送信先</dt>
            <dd>
              {audience}（{preview.data ?? 0}件）
            </dd>
            <dt>タイトル</dt>
            <dd>{draft.title.trim()}</dd>
          </dl>
          <h3>本文</h3>
          {/* The editor's own HTML (its schema allows no scripts); the server sanitises it again. */}
          <div className="admin-mail__body" dangerouslySetInnerHTML={{ __html: draft.content }} />
          <p>この内容で {preview.data ?? 0} 件に送信します。よろしいですか？</p>
          <div className="form__actions">
            <button
              type="button"
              className="button button--block button--primary"
              disabled={sending || preview.data === 0}
              onClick={send}
            >
              {sending ? '登録中…' : '送信する'}
            </button>
            <button type="button" className="button button--block" disabled={sending} onClick={() => setStep('edit')}>
              修正する
            </button>
          </div>
        </section>
      )}
    </section>
  );
}
