import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Modal } from '@/components/Modal';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { usePublishProjectMutation, useUnscheduleProjectMutation } from '../api/projectsApi';
import { formatInstant } from '../format';
import { PROJECT_MESSAGES, publishAtError, stateLabel, tokyoInstantOf, tokyoNowLocal } from './rules';
import type { AdminProject } from './types';

type When = 'now' | 'at';

/** `公開の確認` of a draft: now, or at a Tokyo date and time (a scheduled publication). */
function PublishDialog({
  project,
  onDone,
  onCancel,
}: {
  project: AdminProject;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [when, setWhen] = useState<When>('now');
  const [at, setAt] = useState('');
  const [atError, setAtError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string[]>([]);
  const [publish, { isLoading }] = usePublishProjectMutation();

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    setFailure([]);
    const problem = when === 'at' ? publishAtError(at) : null;
    setAtError(problem);
    if (problem) return;
    const publishAt = when === 'at' ? tokyoInstantOf(at) : null;
    try {
      const result = await publish({ id: project.id, input: { publishAt } }).unwrap();
      onDone(
        result.state === 'scheduled' && result.publishAt
          ? PROJECT_MESSAGES.scheduled(formatInstant(result.publishAt))
          : PROJECT_MESSAGES.published,
      );
    } catch (error) {
      // Every reason at once (no return, no payment method, an end in the past), not only the first.
      const reasons = getApiErrorBody(error)?.errors?.map((e) => e.message) ?? [];
      setFailure(reasons.length > 0 ? reasons : [getErrorMessage(error)]);
    }
  };

  return (
    <Modal title="公開の確認" onClose={onCancel}>
      <form className="admin-publish" noValidate onSubmit={confirm}>
        <p className="modal__message">「{project.title}」を公開します。公開後は URL・目標金額・実施方式・税の扱いを変更できません。</p>
        {failure.length > 0 && (
          <Notice tone="error">
            {failure.map((reason) => (
              <p key={reason}>{reason}</p>
            ))}
          </Notice>
        )}
        <fieldset className="field admin-choices">
          <legend className="field__label">公開のタイミング</legend>
          <label className="admin-choice">
            <input type="radio" name={`${id}-when`} checked={when === 'now'} onChange={() => setWhen('now')} />
            <span>今すぐ公開</span>
          </label>
          <label className="admin-choice">
            <input type="radio" name={`${id}-when`} checked={when === 'at'} onChange={() => setWhen('at')} />
            <span>日時を指定して公開</span>
          </label>
        </fieldset>
        {when === 'at' && (
          <div className="field">
            <label className="field__label" htmlFor={`${id}-at`}>
              公開日時（日本時間）
            </label>
            <input
              id={`${id}-at`}
              className="field__input"
              type="datetime-local"
              value={at}
              min={tokyoNowLocal()}
              aria-invalid={Boolean(atError)}
              aria-describedby={atError ? `${id}-at-error` : undefined}
              onChange={(e) => setAt(e.target.value)}
            />
            {atError && (
              <p id={`${id}-at-error`} className="field__error" role="alert">
                {atError}
              </p>
            )}
          </div>
        )}
        <div className="refund-confirm__actions">
          <button type="button" className="button" onClick={onCancel}>
            キャンセル
          </button>
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {isLoading ? '公開中…' : '公開する'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The project's state, its links (preview or public page) and the publication. */
export function Publication({ project }: { project: AdminProject }) {
  const titleId = useId();
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [unschedule, unscheduling] = useUnscheduleProjectMutation();
  const stateRef = useRef<HTMLParagraphElement>(null);
  const isPublic = project.state === 'open' || project.state === 'ended';

  // The button that opened the dialog is gone once published: the focus goes to the new state instead.
  useEffect(() => {
    if (message) stateRef.current?.focus();
  }, [message]);

  return (
    <section className="admin-section admin-publication" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        公開
      </h2>
      <div aria-live="polite">{message && <Notice tone="success"><p>{message}</p></Notice>}</div>
      <p ref={stateRef} tabIndex={-1} className="admin-publication__state">
        状態：<span className={`admin-state admin-state--${project.state}`}>{stateLabel(project.state)}</span>
        {project.state === 'scheduled' && project.publishAt && (
          <span className="nowrap">（{formatInstant(project.publishAt)} に公開）</span>
        )}
        {isPublic && project.publishAt && <span className="nowrap">（{formatInstant(project.publishAt)} から公開）</span>}
      </p>
      {project.state === 'open' && <p className="admin-publication__live">公開中</p>}
      <div className="admin-publication__actions">
        {isPublic ? (
          <Link className="button" to={project.publicUrl}>
            公開ページを見る
          </Link>
        ) : (
          <>
            <Link className="button" to={paths.adminProjectPreview.getHref(project.id)}>
              プレビュー
            </Link>
            {project.state === 'draft' && (
              <button type="button" className="button button--primary" onClick={() => setAsking(true)}>
                公開する
              </button>
            )}
            {/* A wrong time is taken back to a draft, then published again (the server refuses a second schedule). */}
            {project.state === 'scheduled' && (
              <button
                type="button"
                className="button"
                disabled={unscheduling.isLoading}
                onClick={() =>
                  void unschedule(project.id)
                    .unwrap()
                    .then(() => setMessage(PROJECT_MESSAGES.unscheduled))
                    .catch(() => undefined)
                }
              >
                公開予約を取り消す
              </button>
            )}
          </>
        )}
      </div>
      {project.state === 'draft' && (
        <p className="admin-note">公開にはリターンが1つ以上と、支払い方法が1つ以上必要です。</p>
      )}
      {unscheduling.isError && (
        <p className="field__error" role="alert">
          {getErrorMessage(unscheduling.error)}
        </p>
      )}
      {asking && (
        <PublishDialog
          project={project}
          onCancel={() => setAsking(false)}
          onDone={(done) => {
            setAsking(false);
            setMessage(done);
          }}
        />
      )}
    </section>
  );
}
