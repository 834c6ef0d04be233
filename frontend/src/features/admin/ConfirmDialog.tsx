import { Modal } from '@/components/Modal';

/** A yes/no question before money moves; cancelling (or Escape) stops the action. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal title={title} onClose={onCancel}>
      <p className="refund-confirm__message">{message}</p>
      <div className="refund-confirm__actions">
        <button type="button" className="button" onClick={onCancel}>
          キャンセル
        </button>
        <button type="button" className="button button--primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
