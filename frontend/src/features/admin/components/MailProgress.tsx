import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { isFinished, useMailDetailQuery, type MailDetail } from '../api/mailApi';

/** The spec's messages of the mass mail (spec 001 §8). */
export const MAIL_MESSAGES = {
  titleRequired: 'タイトルを入力してください。',
  contentRequired: '内容を入力してください。',
  failed: '登録に失敗しました。',
  done: 'メール送信が完了しました。',
} as const;

/** How often the progress is read again while the job runs. */
const POLL_MS = 1000;

export function ProgressBar({ mail }: { mail: MailDetail }) {
  const { total, sent, failed, status } = mail.progress;
  const done = sent + failed;
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  const label =
    status === 'sent' ? '送信完了' : status === 'failed' ? '送信を中止しました' : status === 'queued' ? '送信待ち' : '送信中';
  return (
    <div className="mail-progress">
      <div
        className="mail-progress__bar"
        role="progressbar"
        aria-label="送信の進み具合"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${total}件中${done}件処理（送信済み${sent}件、失敗${failed}件）`}
      >
        <span className="mail-progress__sent" style={{ width: `${total === 0 ? 0 : (sent / total) * 100}%` }} />
        <span className="mail-progress__failed" style={{ width: `${total === 0 ? 0 : (failed / total) * 100}%` }} />
      </div>
      <p className="mail-progress__numbers">
        {label}：送信済み <strong>{sent}</strong> 件 / 失敗 <strong>{failed}</strong> 件 / 全 <strong>{total}</strong> 件（
        {percent}%）
      </p>
    </div>
  );
}

/** The addresses the mail reached, shown with the success message. */
export function DoneNotice({ mail }: { mail: MailDetail }) {
  const sentTo = mail.recipients.filter((r) => r.status === 'sent').map((r) => r.email);
  if (mail.progress.status !== 'sent') {
    return (
      <Notice tone="error">
        <p>{MAIL_MESSAGES.failed}</p>
      </Notice>
    );
  }
  return (
    <Notice tone="success">
      <p>{MAIL_MESSAGES.done}</p>
      <details open={sentTo.length <= 20}>
        <summary>送信先（{sentTo.length}件）</summary>
        <ul className="mail-progress__addresses" aria-label="送信先のメールアドレス">
          {sentTo.map((email) => (
            <li key={email}>{email}</li>
          ))}
        </ul>
      </details>
      {mail.progress.failed > 0 && <p>送信できなかった宛先が {mail.progress.failed} 件あります。詳細画面で確認してください。</p>}
    </Notice>
  );
}

/**
 * The progress of a mail being sent, read again every second until the job is over. The job runs on the server,
 * so closing the page changes nothing: opening it again (or the mail's detail page) shows where it stands.
 */
export function MailSending({ id }: { id: number }) {
  const [finishedSeen, setFinishedSeen] = useState(false);
  // Keeps asking while the job runs, also when the tab is in the background; stops once it is over.
  const { data: mail, isError } = useMailDetailQuery(id, {
    pollingInterval: finishedSeen ? 0 : POLL_MS,
    skipPollingIfUnfocused: false,
    refetchOnMountOrArgChange: true,
  });
  const finished = isFinished(mail?.progress);
  useEffect(() => {
    if (finished) setFinishedSeen(true);
  }, [finished]);
  if (isError) {
    return (
      <Notice tone="error">
        <p>送信状況を読み込めませんでした。送信は続いています。時間をおいて送信メール一覧で確認してください。</p>
      </Notice>
    );
  }
  if (!mail) return <p role="status">送信状況を読み込み中…</p>;
  return (
    <section className="mail-sending" aria-labelledby="mail-sending-title">
      <h2 id="mail-sending-title">「{mail.title}」の送信</h2>
      <ProgressBar mail={mail} />
      <div aria-live="polite">{finished && <DoneNotice mail={mail} />}</div>
      <p>
        <Link to={paths.adminMailDetail.getHref(mail.id)}>このメールの詳細を見る</Link>
      </p>
    </section>
  );
}
