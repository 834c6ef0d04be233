import { Link, useParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { NotFound } from '@/components/NotFound';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useMailDetailQuery } from './api/mailApi';
import { MailSending } from './components/MailProgress';
import { formatDateTime } from './AdminMail';
import './admin-mail.css';

const RECIPIENT_STATUS: Record<string, string> = { pending: '送信待ち', sent: '送信済み', failed: '失敗' };

/** `/admin/mail/{id}/`: sender, project, title, body (sanitised by the server), progress and every recipient. */
export function AdminMailDetail() {
  const { id: raw } = useParams();
  const id = /^[1-9]\d{0,15}$/.test(raw ?? '') ? Number(raw) : null;
  const { data: mail, isLoading, isError, error, refetch } = useMailDetailQuery(id ?? 0, { skip: id === null });
  const notFound = id === null || (isError && typeof error === 'object' && error !== null && 'status' in error && error.status === 404);

  if (notFound) return <NotFound />;
  if (isLoading) return <PageLoading />;
  if (isError || !mail) return <LoadError message={getErrorMessage(error)} onRetry={refetch} />;

  const sender = mail.senderName ? `${mail.senderName}（${mail.senderEmail}）` : mail.senderEmail;
  return (
    <section className="page page--admin admin-mail" aria-labelledby="admin-mail-detail-title">
      <p className="admin-mail__back">
        <Link to={paths.adminMail.getHref()}>送信メール一覧へ</Link>
      </p>
      <h1 id="admin-mail-detail-title">{mail.title}</h1>
      <dl className="admin-mail__facts">
        <dt>送信者</dt>
        <dd>{sender}</dd>
        <dt>プロジェクト</dt>
        <dd>
          <Phrase text={mail.projectTitle ?? 'なし（全会員宛て）'} />
        </dd>
        <dt>作成日時</dt>
        <dd>
          <time className="nowrap" dateTime={mail.createdAt}>
            {formatDateTime(mail.createdAt)}
          </time>
        </dd>
        <dt>タイトル</dt>
        <dd>{mail.title}</dd>
      </dl>
      <h2>本文</h2>
      {/* Sanitised by the server before storage and again on the way out. */}
      <div className="admin-mail__body" dangerouslySetInnerHTML={{ __html: mail.content }} />
      <MailSending id={mail.id} />
      <h2>送信先ごとの状況</h2>
      <div className="admin-mail__table-wrap admin-scroll" tabIndex={0} role="region" aria-label="送信先ごとの状況（横にスクロールできます）">
        <table className="admin-mail__recipients">
          <caption className="visually-hidden">送信先ごとの状況</caption>
          <thead>
            <tr>
              <th scope="col">メールアドレス</th>
              <th scope="col">状況</th>
              <th scope="col">備考</th>
            </tr>
          </thead>
          <tbody>
            {mail.recipients.map((r) => (
              <tr key={r.email}>
                <td>{r.email}</td>
                <td className="admin-time">{RECIPIENT_STATUS[r.status] ?? r.status}</td>
                <td>
                  {r.status === 'sent' && r.sentAt ? (
                    <span className="nowrap">{formatDateTime(r.sentAt)}</span>
                  ) : (
                    <Phrase text={r.error ?? ''} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
