import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Modal } from '@/components/Modal';
import { Notice } from '@/components/form/Notice';
import { getApiErrorBody } from '@/lib/apiError';
import { AdminField } from './fields';
import { HIDE_COMMENT_FIELDS, HIDE_REASON_MAX, fieldMessagesOf, oneLine, type FieldMessages, type HideCommentField } from './rules';

/**
 * A moderation dialog (terms 第18条) that asks why: the reason is required, one line; the server's message shows
 * under the field. `hide` sends the trimmed reason and rejects with the server's answer when it is refused.
 */
export function HideReasonDialog({
  title,
  children,
  failure,
  hide,
  onDone,
  onCancel,
}: {
  title: string;
  /** What will happen, and what it is about. */
  children: ReactNode;
  /** Shown when the server's answer names no field. */
  failure: string;
  hide: (reason: string) => Promise<unknown>;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldMessages<HideCommentField>>({});
  const fieldRef = useRef<HTMLTextAreaElement>(null);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setErrors({});
    setBusy(true);
    try {
      await hide(reason.trim());
      onDone();
    } catch (refused) {
      const messages = fieldMessagesOf(getApiErrorBody(refused), HIDE_COMMENT_FIELDS, failure);
      setErrors(messages);
      if (messages.reason) fieldRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={title} onClose={onCancel}>
      <form className="admin-hide-comment" noValidate onSubmit={confirm}>
        {children}
        {errors.form && (
          <Notice tone="error">
            <p>{errors.form}</p>
          </Notice>
        )}
        <AdminField
          label="非表示の理由"
          error={errors.reason}
          hint={`${HIDE_REASON_MAX}文字以内で入力してください（改行は入れられません）。`}
        >
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              ref={fieldRef}
              className="field__input field__input--textarea"
              value={reason}
              maxLength={HIDE_REASON_MAX}
              rows={3}
              required
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => setReason(oneLine(e.target.value))}
            />
          )}
        </AdminField>
        <div className="refund-confirm__actions">
          <button type="button" className="button" onClick={onCancel}>
            キャンセル
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? '非表示にしています…' : '非表示にする'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
