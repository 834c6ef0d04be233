import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Modal } from '@/components/Modal';
import { paths } from '@/config/paths';
import type { AnonymousBank } from '../api/types';
import { paymentInfoHref, storeSupportStart, type SupportType } from '../support';

export interface SupportTypeModalProps {
  projectSlug: string;
  returnSlug: string;
  returnTitle: string;
  /** Shown only when the project accepts anonymous bank transfers. */
  anonymousBank: AnonymousBank | null;
  onClose: () => void;
}

/** Spec 000 §4: how a logged-out visitor wants to support. */
export function SupportTypeModal({ projectSlug, returnSlug, returnTitle, anonymousBank, onClose }: SupportTypeModalProps) {
  const navigate = useNavigate();
  const [showBank, setShowBank] = useState(false);
  const loginRef = paymentInfoHref(projectSlug, returnSlug);

  const start = (supportType: SupportType, href: string) => {
    storeSupportStart({ loginRef, supportType });
    onClose();
    navigate(href);
  };

  return (
    <Modal title="支援方法を選択してください" onClose={onClose}>
      <p className="modal__message">選択中のリターン：{returnTitle}</p>
      <div className="modal__actions">
        <button type="button" className="button button--primary button--block" onClick={() => start('login', paths.login.getHref())}>
          ログインして支援する
        </button>
        <button type="button" className="button button--block" onClick={() => start('login', paths.signup.getHref())}>
          新規会員登録して支援する
        </button>
        <button type="button" className="button button--block" onClick={() => start('guest', loginRef)}>
          ゲストとして支援する
        </button>
        {anonymousBank && (
          <button
            type="button"
            className="button button--block"
            aria-expanded={showBank}
            aria-controls="anonymous-bank"
            onClick={() => setShowBank((value) => !value)}
          >
            匿名で銀行振込の情報を見る
          </button>
        )}
        {anonymousBank && showBank && (
          <div id="anonymous-bank" className="bank-info">
            <p className="bank-info__lead">
              お名前を明かさずに支援される方は、以下の口座へお振り込みください。振込手数料はご負担ください。
            </p>
            <dl className="bank-info__list">
              <div><dt>金融機関</dt><dd>{anonymousBank.bankAccount}</dd></div>
              <div><dt>支店</dt><dd>{anonymousBank.branch}</dd></div>
              <div><dt>口座種別</dt><dd>{anonymousBank.kinds}</dd></div>
              <div><dt>口座番号</dt><dd>{anonymousBank.number}</dd></div>
              <div><dt>口座名義</dt><dd>{anonymousBank.nominee}</dd></div>
            </dl>
          </div>
        )}
        <button type="button" className="button button--text button--block" onClick={onClose}>
          閉じる
        </button>
      </div>
    </Modal>
  );
}
