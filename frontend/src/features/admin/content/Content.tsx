import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import {
  useProjectContentQuery,
  useRemoveProjectImageMutation,
  useSaveContentMutation,
  useUploadProjectImageMutation,
} from '../api/contentApi';
import { AdminField } from '../projects/fields';
import { CONTENT_MESSAGES, draftOf, inputOf, messagesByField, moved, withNewSlides, type ContentDraft } from './rules';
import type { ImageSlot, ProjectContent } from './types';

const ACCEPT = 'image/jpeg,image/png,image/gif';

interface ImagePickerProps {
  projectId: number;
  slot: Exclude<ImageSlot, 'slider'>;
  returnId?: number;
  /** What the image is, e.g. 'メイン画像'. */
  label: string;
  url: string | null;
  hint?: string;
  disabledReason?: string;
}

/** One image place: what is there now, a file picker that uploads at once, and removal. */
function ImagePicker({ projectId, slot, returnId, label, url, hint, disabledReason }: ImagePickerProps) {
  const [upload, { isLoading: uploading }] = useUploadProjectImageMutation();
  const [remove, { isLoading: removing }] = useRemoveProjectImageMutation();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const busy = uploading || removing;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setDone(null);
    try {
      await upload({ projectId, slot, file, returnId }).unwrap();
      setDone(CONTENT_MESSAGES.uploaded);
    } catch (failure) {
      const messages = messagesByField(getApiErrorBody(failure), CONTENT_MESSAGES.uploadFailed);
      setError(messages.file ?? Object.values(messages)[0] ?? CONTENT_MESSAGES.uploadFailed);
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  const clear = async () => {
    setError(null);
    setDone(null);
    try {
      await remove({ projectId, slot, returnId }).unwrap();
      setDone(CONTENT_MESSAGES.removed);
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };

  return (
    <div className="admin-image-picker">
      <AdminField label={`${label}を選ぶ`} error={error} hint={disabledReason ?? hint} optional>
        {({ id, describedBy, invalid }) => (
          <input
            ref={input}
            id={id}
            type="file"
            accept={ACCEPT}
            className="field__input"
            disabled={busy || Boolean(disabledReason)}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => void pick(e.target.files?.[0])}
          />
        )}
      </AdminField>
      {url ? (
        <div className="admin-image-picker__current">
          <img src={url} alt={`現在の${label}`} className="admin-image-picker__image" />
          <button type="button" className="button button--small" disabled={busy} onClick={() => void clear()}>
            {`${label}を削除する`}
          </button>
        </div>
      ) : (
        <p className="admin-note">{`${label}は未登録です。`}</p>
      )}
      <div aria-live="polite">{uploading ? <p role="status">アップロードしています…</p> : done && <p>{done}</p>}</div>
    </div>
  );
}

/** Adds one slider image with its alternative text. */
function SlideAdder({ projectId, full, onAdded }: { projectId: number; full: boolean; onAdded: (c: ProjectContent) => void }) {
  const [upload, { isLoading }] = useUploadProjectImageMutation();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const input = useRef<HTMLInputElement>(null);

  const add = async () => {
    if (!file) {
      setErrors({ file: '画像ファイルを選択してください。' });
      return;
    }
    setErrors({});
    try {
      const content = await upload({ projectId, slot: 'slider', file, alt }).unwrap();
      onAdded(content);
      setFile(null);
      setAlt('');
      if (input.current) input.current.value = '';
    } catch (failure) {
      setErrors(messagesByField(getApiErrorBody(failure), CONTENT_MESSAGES.uploadFailed));
    }
  };

  return (
    <fieldset className="admin-fieldset">
      <legend>スライダー画像を追加</legend>
      <AdminField label="追加するスライダー画像" error={errors.file ?? errors.form}>
        {({ id, describedBy, invalid }) => (
          <input
            ref={input}
            id={id}
            type="file"
            accept={ACCEPT}
            className="field__input"
            disabled={isLoading || full}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        )}
      </AdminField>
      <AdminField label="追加する画像の代替テキスト" error={errors.alt} hint="画像が見えない人に読み上げる説明（120文字以内）。" optional>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            value={alt}
            maxLength={120}
            disabled={full}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => setAlt(e.target.value.replace(/\r\n?|\n/g, ' '))}
          />
        )}
      </AdminField>
      <button type="button" className="button" disabled={isLoading || full} onClick={() => void add()}>
        {isLoading ? 'アップロードしています…' : 'スライダーに追加する'}
      </button>
    </fieldset>
  );
}

function ContentForm({ content }: { content: ProjectContent }) {
  const titleId = useId();
  const [draft, setDraft] = useState<ContentDraft>(() => draftOf(content));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [save, { isLoading }] = useSaveContentMutation();
  const limits = content.limits;
  const edit = (next: Partial<ContentDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setSaved(false);
  };
  const editOwner = (next: Partial<ContentDraft['owner']>) => edit({ owner: { ...draft.owner, ...next } });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    setErrors({});
    setSaved(false);
    try {
      const answer = await save({ projectId: content.id, input: inputOf(draft) }).unwrap();
      setDraft(draftOf(answer));
      setSaved(true);
    } catch (failure) {
      setErrors(messagesByField(getApiErrorBody(failure), CONTENT_MESSAGES.saveFailed));
    }
  };
  const known = new Set(['honorImgLink', 'slider', 'owner.name', 'owner.profile', 'owner.links', 'faqs']);
  const formError =
    errors.form ?? Object.entries(errors).find(([field]) => !known.has(field) && !/\.\d+\./.test(field))?.[1];

  return (
    <form className="form admin-content-form" noValidate onSubmit={(e) => void submit(e)} aria-busy={isLoading}>
      {formError && (
        <Notice tone="error">
          <p>{formError}</p>
        </Notice>
      )}
      <h3 className="admin-subtitle" id={`${titleId}-slider`}>
        スライダー画像（{draft.slider.length}/{limits.maxSliderImages}枚）
      </h3>
      {errors.slider && (
        <p className="field__error" role="alert">
          {errors.slider}
        </p>
      )}
      {draft.slider.length === 0 ? (
        <p className="admin-note">{CONTENT_MESSAGES.noSlides}</p>
      ) : (
        <ol className="admin-content-list" aria-labelledby={`${titleId}-slider`}>
          {draft.slider.map((slide, index) => (
            <li key={slide.id} className="admin-content-list__item">
              <img src={slide.src} alt="" className="admin-image-picker__image" />
              <AdminField label={`${index + 1}枚目の代替テキスト`} error={errors[`slider.${index}.alt`]} optional>
                {({ id, describedBy, invalid }) => (
                  <input
                    id={id}
                    className="field__input"
                    value={slide.alt}
                    maxLength={120}
                    aria-invalid={invalid}
                    aria-describedby={describedBy}
                    onChange={(e) =>
                      edit({
                        slider: draft.slider.map((s) =>
                          s.id === slide.id ? { ...s, alt: e.target.value.replace(/\r\n?|\n/g, ' ') } : s,
                        ),
                      })
                    }
                  />
                )}
              </AdminField>
              <div className="admin-content-list__actions">
                <button type="button" className="button button--small" disabled={index === 0} onClick={() => edit({ slider: moved(draft.slider, index, -1) })}>
                  {`${index + 1}枚目を上へ移動`}
                </button>
                <button
                  type="button"
                  className="button button--small"
                  disabled={index === draft.slider.length - 1}
                  onClick={() => edit({ slider: moved(draft.slider, index, 1) })}
                >
                  {`${index + 1}枚目を下へ移動`}
                </button>
                <button type="button" className="button button--small" onClick={() => edit({ slider: draft.slider.filter((s) => s.id !== slide.id) })}>
                  {`${index + 1}枚目を外す`}
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <SlideAdder
        projectId={content.id}
        full={draft.slider.length >= limits.maxSliderImages}
        onAdded={(answer) => setDraft((d) => withNewSlides(d, answer))}
      />
      <p className="admin-note">並べ替え・代替テキスト・外した画像は「ページの内容を保存する」で反映されます。</p>

      <AdminField label="名誉バナーのリンク先" error={errors.honorImgLink} hint="http:// または https:// で始まるURL。" optional>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            type="url"
            inputMode="url"
            value={draft.honorImgLink}
            maxLength={2048}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => edit({ honorImgLink: e.target.value })}
          />
        )}
      </AdminField>

      <fieldset className="admin-fieldset">
        <legend>実行者のプロフィール</legend>
        <AdminField label="実行者名" error={errors['owner.name']} hint="空欄にして保存すると、実行者の欄はページに表示されません。" optional>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input"
              value={draft.owner.name}
              maxLength={100}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => editOwner({ name: e.target.value.replace(/\r\n?|\n/g, ' ') })}
            />
          )}
        </AdminField>
        <AdminField label="実行者の紹介文" error={errors['owner.profile']} hint="1000文字以内。改行はそのまま表示されます。" optional>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              className="field__input"
              rows={4}
              value={draft.owner.profile}
              maxLength={1000}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => editOwner({ profile: e.target.value })}
            />
          )}
        </AdminField>
        {errors['owner.links'] && (
          <p className="field__error" role="alert">
            {errors['owner.links']}
          </p>
        )}
        {draft.owner.links.map((link, index) => (
          <div key={index} className="admin-content-list__item">
            <AdminField label={`リンク${index + 1}の表示名`} error={errors[`owner.links.${index}.label`]}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="field__input"
                  value={link.label}
                  maxLength={60}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) =>
                    editOwner({ links: draft.owner.links.map((l, i) => (i === index ? { ...l, label: e.target.value } : l)) })
                  }
                />
              )}
            </AdminField>
            <AdminField label={`リンク${index + 1}のURL`} error={errors[`owner.links.${index}.url`]}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="field__input"
                  type="url"
                  inputMode="url"
                  value={link.url}
                  maxLength={2048}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) =>
                    editOwner({ links: draft.owner.links.map((l, i) => (i === index ? { ...l, url: e.target.value } : l)) })
                  }
                />
              )}
            </AdminField>
            <button type="button" className="button button--small" onClick={() => editOwner({ links: draft.owner.links.filter((_, i) => i !== index) })}>
              {`リンク${index + 1}を削除`}
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button button--small"
          disabled={draft.owner.links.length >= limits.maxOwnerLinks}
          onClick={() => editOwner({ links: [...draft.owner.links, { label: '', url: '' }] })}
        >
          {`リンクを追加する（${limits.maxOwnerLinks}件まで）`}
        </button>
      </fieldset>

      <fieldset className="admin-fieldset">
        <legend>よくある質問</legend>
        {errors.faqs && (
          <p className="field__error" role="alert">
            {errors.faqs}
          </p>
        )}
        {draft.faqs.length === 0 && <p className="admin-note">{CONTENT_MESSAGES.noFaqs}</p>}
        {draft.faqs.map((faq, index) => (
          <div key={index} className="admin-content-list__item">
            <AdminField label={`質問${index + 1}`} error={errors[`faqs.${index}.question`]}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="field__input"
                  value={faq.question}
                  maxLength={200}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) =>
                    edit({ faqs: draft.faqs.map((f, i) => (i === index ? { ...f, question: e.target.value } : f)) })
                  }
                />
              )}
            </AdminField>
            <AdminField label={`回答${index + 1}`} error={errors[`faqs.${index}.answer`]}>
              {({ id, describedBy, invalid }) => (
                <textarea
                  id={id}
                  className="field__input"
                  rows={3}
                  value={faq.answer}
                  maxLength={2000}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) =>
                    edit({ faqs: draft.faqs.map((f, i) => (i === index ? { ...f, answer: e.target.value } : f)) })
                  }
                />
              )}
            </AdminField>
            <div className="admin-content-list__actions">
              <button type="button" className="button button--small" disabled={index === 0} onClick={() => edit({ faqs: moved(draft.faqs, index, -1) })}>
                {`質問${index + 1}を上へ移動`}
              </button>
              <button
                type="button"
                className="button button--small"
                disabled={index === draft.faqs.length - 1}
                onClick={() => edit({ faqs: moved(draft.faqs, index, 1) })}
              >
                {`質問${index + 1}を下へ移動`}
              </button>
              <button type="button" className="button button--small" onClick={() => edit({ faqs: draft.faqs.filter((_, i) => i !== index) })}>
                {`質問${index + 1}を削除`}
              </button>
            </div>
          </div>
        ))}
        <button
          type="button"
          className="button button--small"
          disabled={draft.faqs.length >= limits.maxFaqs}
          onClick={() => edit({ faqs: [...draft.faqs, { question: '', answer: '' }] })}
        >
          {`質問を追加する（${limits.maxFaqs}件まで）`}
        </button>
      </fieldset>

      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isLoading}>
          {isLoading ? '保存しています…' : 'ページの内容を保存する'}
        </button>
      </div>
      <div aria-live="polite">
        {saved && (
          <Notice tone="success">
            <p>{CONTENT_MESSAGES.saved}</p>
          </Notice>
        )}
      </div>
    </form>
  );
}

/**
 * `ページの内容`: the images (main, slider, honour banner, returns'), the owner's profile and the FAQ of a project
 * page. Images are stored as soon as they are chosen; the texts with 「ページの内容を保存する」.
 */
export function Content({ projectId, returnIds }: { projectId: number; returnIds: readonly number[] }) {
  const titleId = useId();
  const { data, isError, error, refetch } = useProjectContentQuery(projectId);
  const returnsKey = returnIds.join(',');
  // A return added or removed above: its picture place follows.
  useEffect(() => {
    if (data && data.returns.map((r) => r.id).join(',') !== returnsKey) void refetch();
  }, [data, returnsKey, refetch]);

  let body;
  if (data) {
    const limits = data.limits;
    const sizeHint = `jpg・png・gif、${Math.floor(limits.maxUploadBytes / 1024 / 1024)}MBまで。長辺${limits.projectImageEdge}pxに縮小して保存します。`;
    body = (
      <>
        <ImagePicker projectId={projectId} slot="main" label="メイン画像" url={data.mainImageUrl} hint={sizeHint} />
        <ImagePicker projectId={projectId} slot="honor" label="名誉バナー画像" url={data.honorImgUrl} hint={sizeHint} />
        <ImagePicker
          projectId={projectId}
          slot="owner"
          label="実行者の画像"
          url={data.owner?.imageUrl ?? null}
          hint={`ロゴは切り取らず、${limits.ownerImageSide}px四方の正方形に余白を付けて収めます。`}
          disabledReason={data.owner ? undefined : CONTENT_MESSAGES.ownerFirst}
        />
        {/* Keyed by project: another project's page starts from that project's values. */}
        <ContentForm key={projectId} content={data} />
        {data.returns.length > 0 && (
          <fieldset className="admin-fieldset">
            <legend>リターンの画像</legend>
            {data.returns.map((r) => (
              <ImagePicker
                key={r.id}
                projectId={projectId}
                slot="return"
                returnId={r.id}
                label={`「${r.title}」の画像`}
                url={r.imageUrl}
                hint={sizeHint}
              />
            ))}
          </fieldset>
        )}
      </>
    );
  } else if (isError) {
    body = <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  } else {
    body = <p role="status">読み込み中…</p>;
  }
  return (
    <section className="admin-section admin-content" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        ページの内容（画像・実行者・よくある質問）
      </h2>
      {body}
    </section>
  );
}
