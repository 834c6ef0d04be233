import { useNavigate } from 'react-router-dom';
import { Modal } from '@/components/Modal';
import { paths } from '@/config/paths';

/** Spec 000 §2: '{title}にはログインが必要です。' with sign-up and login buttons. */
export const loginRequiredMessage = (title: string): string => `${title}にはログインが必要です。`;

export interface LoginRequiredModalProps {
  /** What needs a login, e.g. 'コメントの編集'. */
  title: string;
  onClose: () => void;
  /** Called before navigating, e.g. to remember where to come back. */
  onBeforeNavigate?: () => void;
}

export function LoginRequiredModal({ title, onClose, onBeforeNavigate }: LoginRequiredModalProps) {
  const navigate = useNavigate();
  const go = (href: string) => {
    onBeforeNavigate?.();
    onClose();
    navigate(href);
  };
  return (
    <Modal title="ログインが必要です" onClose={onClose}>
      <p className="modal__message">{loginRequiredMessage(title)}</p>
      <div className="modal__actions">
        <button type="button" className="button button--primary button--block" onClick={() => go(paths.signup.getHref())}>
          新規会員登録
        </button>
        <button type="button" className="button button--block" onClick={() => go(paths.login.getHref())}>
          ログイン
        </button>
        <button type="button" className="button button--text button--block" onClick={onClose}>
          閉じる
        </button>
      </div>
    </Modal>
  );
}
