import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Notice } from '@/components/form/Notice';
import { getErrorMessage } from '@/lib/apiError';
import { useUploadFileMutation, type UploadType } from '../api/accountApi';

/** Spec 001 §5 and §9: jpg, jpeg, png or gif up to 2,097,152 bytes; 110 x 110 recommended. */
export const IMAGE_MAX_BYTES = 2_097_152;
export const IMAGE_ACCEPT = '.jpg,.jpeg,.png,.gif';
const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif'];

export const IMAGE_MESSAGES = {
  type: 'jpg、jpeg、png、gif形式の画像を選択してください。',
  tooLarge: 'ファイルサイズは2MB以内にしてください。',
} as const;

/** The problem with a chosen file, or `null`; the server checks the content again. */
export const validateImage = (file: File): string | null => {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!IMAGE_EXTENSIONS.includes(extension)) return IMAGE_MESSAGES.type;
  if (file.size > IMAGE_MAX_BYTES) return IMAGE_MESSAGES.tooLarge;
  return null;
};

/** The visible, accessible name of the control that opens the file chooser. */
export const IMAGE_CHOOSE_LABEL = '画像を選択する';

const LABELS: Record<UploadType, { field: string; alt: string; done: string }> = {
  icon: { field: 'プロフィールアイコン', alt: 'プロフィールアイコン', done: 'プロフィールアイコンを登録しました。' },
  logo: { field: '企業ロゴ', alt: '企業ロゴ', done: '企業ロゴを登録しました。' },
};

const previewUrlOf = (file: File): string | null =>
  typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;

/** Chooses an image and uploads it at once; the server makes it the current icon or logo. */
export function ImageUpload({ type, currentUrl }: { type: UploadType; currentUrl: string | null }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const labelId = `${id}-label`;
  const [upload, { isLoading }] = useUploadFileMutation();
  const [preview, setPreview] = useState<string | null>(null);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const labels = LABELS[type];

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setResult(null);
    const problem = validateImage(file);
    if (problem) {
      setResult({ ok: false, message: problem });
      if (inputRef.current) inputRef.current.value = '';
      return;
    }
    setPreview(previewUrlOf(file));
    try {
      await upload({ type, file }).unwrap();
      setResult({ ok: true, message: labels.done });
    } catch (error) {
      setPreview(null);
      setResult({ ok: false, message: getErrorMessage(error) });
    } finally {
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  const shown = preview ?? currentUrl;

  return (
    <div className="field image-upload" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="field__label">
        {labels.field}
      </p>
      <div className="image-upload__row">
        {shown ? (
          <img className="image-upload__preview" src={shown} alt={labels.alt} width={110} height={110} />
        ) : (
          <span className="image-upload__preview image-upload__preview--empty" aria-hidden="true">
            未設定
          </span>
        )}
        {/* The native control reads in the browser's language and cannot be styled; the button below,
            always Japanese, opens its file chooser. It stays out of the tab order and of the
            accessibility tree so the control is announced once. */}
        <input
          ref={inputRef}
          hidden
          tabIndex={-1}
          type="file"
          name={type}
          aria-label={`${labels.field}の画像ファイル`}
          accept={IMAGE_ACCEPT}
          disabled={isLoading}
          onChange={(event) => void onChange(event)}
        />
        <button
          type="button"
          className="button image-upload__button"
          aria-describedby={hintId}
          disabled={isLoading}
          onClick={() => inputRef.current?.click()}
        >
          {isLoading ? 'アップロード中…' : IMAGE_CHOOSE_LABEL}
        </button>
      </div>
      <p id={hintId} className="field__hint">
        jpg、jpeg、png、gif形式・2MB以内。推奨サイズは110 × 110ピクセルです。選択するとすぐに登録されます。
      </p>
      {isLoading && (
        <p className="field__hint" role="status">
          アップロード中…
        </p>
      )}
      {result && (
        <Notice tone={result.ok ? 'success' : 'error'}>
          <p>{result.message}</p>
        </Notice>
      )}
    </div>
  );
}
