import { Link, useSearchParams } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useMailListQuery, type MailSummary } from './api/mailApi';
import './admin-mail.css';

const STATUS_LABELS: Record<string, string> = {
  queued: '送信待ち',
  sending: '送信中',
  sent: '送信完了',
  failed: '送信中止',
};

/** `2026-11-26T12:00:00+09:00` → `2026/11/26 12:00` (already Tokyo time). */
export const formatDateTime = (iso: string) => iso.slice(0, 16).replace(/-/g, '/').replace('T', ' ');

function MailRow({ mail }: { mail: MailSummary }) {
  const { status, sent, failed, total } = mail.progress;
  return (
    <li className="mail-list__item">
      <article aria-labelledby={`mail-${mail.id}-title`}>
        <p className="mail-list__meta">
          <time className="nowrap" dateTime={mail.createdAt}>
            {formatDateTime(mail.createdAt)}
          </time>
          <span className={`mail-list__status mail-list__status--${status}`}>{STATUS_LABELS[status] ?? status}</span>
          <span className="nowrap">
            {sent}/{total}件{failed > 0 ? `（失敗${failed}件）` : ''}
          </span>
        </p>
        <h2 id={`mail-${mail.id}-title`} className="mail-list__title">
          <Link to={paths.adminMailDetail.getHref(mail.id)}>
            <Phrase text={mail.title} />
          </Link>
        </h2>
        <p className="mail-list__project">{mail.projectTitle ? `プロジェクト：${mail.projectTitle}` : '全会員宛て'}</p>
        <p className="mail-list__excerpt">{mail.excerpt}</p>
      </article>
    </li>
  );
}

/** `/admin/mail/`: sent mails, newest first, with the domain's pagination bar. */
export function AdminMail() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, isLoading, isError, error, refetch } = useMailListQuery(page);

  return (
    <section className="page page--admin admin-mail" aria-labelledby="admin-mail-title">
      <p className="admin-mail__back">
        <Link to={paths.admin.getHref()}>管理画面へ</Link>
      </p>
      <h1 id="admin-mail-title">送信メール一覧</h1>
      <p>
        <Link className="button button--primary" to={paths.adminMailRegister.getHref()}>
          新規メール作成
        </Link>
      </p>
      {isLoading && <PageLoading />}
      {isError && <LoadError message={getErrorMessage(error)} onRetry={refetch} />}
      {data && data.data.length === 0 && <p>送信したメールはまだありません。</p>}
      {data && data.data.length > 0 && (
        <>
          <ul className="mail-list" aria-label="送信メール">
            {data.data.map((mail) => (
              <MailRow key={mail.id} mail={mail} />
            ))}
          </ul>
          {data.totalPages > 1 && (
            <nav className="pagination" aria-label="ページ送り">
              <ul>
                {data.pages.map((item, i) =>
                  item.kind === 'page' && item.page !== null ? (
                    <li key={`p${item.page}`}>
                      {item.page === page ? (
                        <span aria-current="page" className="pagination__current">
                          {item.page}
                        </span>
                      ) : (
                        <button
                          type="button"
                          className="pagination__link"
                          aria-label={`${item.page}ページ目`}
                          onClick={() => setParams({ page: String(item.page) })}
                        >
                          {item.page}
                        </button>
                      )}
                    </li>
                  ) : (
                    <li key={`d${i}`} aria-hidden="true">
                      …
                    </li>
                  ),
                )}
              </ul>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
