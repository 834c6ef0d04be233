import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Modal } from '@/components/Modal';
import { SESSION_MESSAGES, SESSION_NOTICE_TITLES } from './messages';
import { noticeDismissed } from './sessionSlice';

/**
 * The session's alerts (spec 000 §5 and §8) as the site's own dialog instead of `window.alert`:
 * announced at once, keyboard-closable, and it stays open across the redirect to the login page.
 */
export function SessionNoticeDialog() {
  const notice = useAppSelector((state) => state.session.notice);
  const dispatch = useAppDispatch();
  if (notice === null) return null;
  const close = () => dispatch(noticeDismissed());
  return (
    <Modal title={SESSION_NOTICE_TITLES[notice]} onClose={close} role="alertdialog">
      <p className="modal__message">{SESSION_MESSAGES[notice]}</p>
      <div className="modal__actions">
        {notice === 'reload' && (
          <button type="button" className="button button--primary button--block" onClick={() => window.location.reload()}>
            再読み込みする
          </button>
        )}
        <button type="button" className={`button button--block${notice === 'reload' ? '' : ' button--primary'}`} onClick={close}>
          閉じる
        </button>
      </div>
    </Modal>
  );
}
