import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { Phrase } from '@/components/Phrase';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import {
  RECENT_ACTIONS,
  useAdminActionsQuery,
  useAdminDashboardQuery,
  type AdminAction,
  type Dashboard,
  type DashboardProject,
} from '../api/dashboardApi';
import { FundingChart } from '../components/FundingChart';
import { actionLabel, formatCount, formatDay, formatInstant, formatYen } from '../format';

/** The admin screens this page links to (spec 001 §2). */
export const ADMIN_LINKS = [
  { href: paths.adminProjects.getHref(), label: 'プロジェクト管理', note: 'プロジェクトとリターンの作成・編集・公開' },
  { href: paths.adminResendRegisterMail.getHref(), label: '登録メールの再送', note: '仮登録・ゲストの方へ本登録のメールを送り直します' },
  { href: paths.adminMail.getHref(), label: '送信メール一覧', note: '一斉メールの作成と送信履歴' },
  { href: paths.adminRefund.getHref(), label: '返金', note: 'プロジェクトごとの支援の返金' },
  { href: paths.adminPayouts.getHref(), label: '精算', note: '成立したプロジェクトの精算書と実行者へのお支払いの記録' },
] as const;

export const DASHBOARD_EMPTY = {
  projects: 'プロジェクトはまだありません。',
  transfers: '振込待ちの銀行振込はありません。',
  failedMails: '送信に失敗したメールはありません。',
  actions: 'まだ管理操作の記録はありません。',
} as const;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="admin-section" aria-labelledby={id}>
      <h2 id={id} className="admin-section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-figures__item">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function ProjectCard({ project }: { project: DashboardProject }) {
  const id = useId();
  return (
    <article className="admin-project" aria-labelledby={id}>
      <h3 id={id} className="admin-project__title">
        <Phrase text={project.title} />
      </h3>
      <dl className="admin-figures">
        <Figure label="集まった金額">
          <span className="nowrap">{formatYen(project.raised)}</span>
          <span className="admin-figures__sub">
            （目標 <span className="nowrap">{formatYen(project.goal)}</span>・<span className="nowrap">{project.progress}%</span>）
          </span>
        </Figure>
        <Figure label="支援者数">
          <span className="nowrap">{formatCount(project.backers)}人</span>
        </Figure>
        <Figure label="残り日数">{project.daysLeft > 0 ? <span className="nowrap">{project.daysLeft}日</span> : '終了'}</Figure>
        <Figure label="入金済み（税込）">
          <span className="nowrap">{formatYen(project.paid)}</span>
          <span className="admin-figures__sub nowrap">（{formatCount(project.paidSales)}件）</span>
        </Figure>
        <Figure label="振込待ち">
          <span className="nowrap">{formatYen(project.awaitingTransfer)}</span>
          <span className="admin-figures__sub nowrap">（{formatCount(project.awaitingSales)}件）</span>
        </Figure>
        <Figure label="返金済み">
          <span className="nowrap">{formatYen(project.refunded)}</span>
          <span className="admin-figures__sub nowrap">（{formatCount(project.refundedSales)}件）</span>
        </Figure>
      </dl>
      <FundingChart title={project.title} series={project.series} />
    </article>
  );
}

function PendingTransfers({ dashboard }: { dashboard: Dashboard }) {
  if (dashboard.pendingTransfers.length === 0) return <p className="admin-empty">{DASHBOARD_EMPTY.transfers}</p>;
  // A list rather than a table: five columns do not fit a phone, and each transfer reads as one line.
  return (
    <ul className="admin-list">
      {dashboard.pendingTransfers.map((t) => (
        <li key={t.saleId} className="admin-list__item">
          <span className="admin-list__main">
            振込期限 <strong className="nowrap">{t.deadline ? formatDay(t.deadline) : '期限なし'}</strong>
            {t.overdue && <span className="admin-badge admin-badge--alert">期限切れ</span>}・
            <span className="nowrap">{formatYen(t.total)}</span>
            {t.remaining !== null && t.remaining !== t.total && (
              <span className="admin-list__note nowrap">（残り {formatYen(t.remaining)}）</span>
            )}
          </span>
          <span className="admin-list__meta">
            <Phrase text={t.projectTitle} />・{t.email}・申込日時 <span className="nowrap">{formatInstant(t.orderedAt)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function FailedMails({ dashboard }: { dashboard: Dashboard }) {
  if (dashboard.failedMails.length === 0) return <p className="admin-empty">{DASHBOARD_EMPTY.failedMails}</p>;
  return (
    <ul className="admin-list">
      {dashboard.failedMails.map((mail) => (
        <li key={mail.key} className="admin-list__item">
          <span className="admin-list__main">
            {mail.mailId === null ? mail.subject : <Link to={paths.adminMailDetail.getHref(mail.mailId)}>{mail.subject}</Link>}
          </span>
          <span className="admin-list__meta">
            宛先 {mail.to}・<span className="nowrap">{formatInstant(mail.failedAt)}</span>・
            <span className="nowrap">{mail.attempts}回試行</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function actionTarget(action: AdminAction): string | null {
  if (action.targetEmail) return action.targetEmail;
  if (action.saleId !== null) return `支援 #${action.saleId}`;
  if (action.mailId !== null) return `メール #${action.mailId}`;
  // The detail differs by action (docs/api.md); only these two names are read here.
  const detail = action.detail as Record<string, unknown>;
  const title = typeof detail['projectTitle'] === 'string' ? detail['projectTitle'] : null;
  const ret = typeof detail['title'] === 'string' && title ? detail['title'] : null;
  if (title) return ret ? `${title}（${ret}）` : title;
  if (action.projectId !== null) return `プロジェクト #${action.projectId}`;
  return null;
}

function RecentActions() {
  const { data, isLoading, isError, error, refetch } = useAdminActionsQuery(RECENT_ACTIONS);
  if (isLoading) return <PageLoading />;
  if (isError || !data) return <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  if (data.length === 0) return <p className="admin-empty">{DASHBOARD_EMPTY.actions}</p>;
  return (
    <ul className="admin-list">
      {data.map((action) => {
        const target = actionTarget(action);
        return (
          <li key={action.id} className="admin-list__item">
            <span className="admin-list__main">
              {actionLabel(action.action)}
              {target && `：${target}`}
            </span>
            <span className="admin-list__meta">
              {/* One text: '2026年11月26日 09:05' has no break opportunity inside its time (no break-all here). */}
              {formatInstant(action.createdAt)}・{action.actorEmail}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function DashboardBody() {
  const { data, isLoading, isError, error, refetch, isFetching } = useAdminDashboardQuery();
  if (isLoading) return <PageLoading />;
  if (isError || !data) return <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  return (
    <>
      <Section title="プロジェクト別の状況">
        <p className="admin-note">
          <span className="nowrap">{formatDay(data.today)}</span>時点。集まった金額と支援者数は公開ページと同じ集計（税込・返金分を除く）です。
          <button type="button" className="button button--small" onClick={() => void refetch()} disabled={isFetching}>
            最新の情報に更新
          </button>
        </p>
        {data.projects.length === 0 ? (
          <p className="admin-empty">{DASHBOARD_EMPTY.projects}</p>
        ) : (
          <div className="admin-projects">
            {data.projects.map((project) => (
              <ProjectCard key={project.id} project={project} />
            ))}
          </div>
        )}
      </Section>
      <Section title="振込待ちの銀行振込">
        <PendingTransfers dashboard={data} />
      </Section>
      <Section title="送信に失敗したメール">
        <FailedMails dashboard={data} />
      </Section>
    </>
  );
}

/** `/admin/`: the links to the admin screens and the dashboard. */
export function Admin() {
  const titleId = useId();
  const navId = useId();
  return (
    <section className="page page--admin admin-page" aria-labelledby={titleId}>
      <h1 id={titleId} className="page__title">
        管理画面
      </h1>
      <nav className="admin-menu" aria-labelledby={navId}>
        <h2 id={navId} className="visually-hidden">
          管理メニュー
        </h2>
        <ul className="admin-menu__list">
          {ADMIN_LINKS.map((link) => (
            <li key={link.href}>
              <Link className="admin-menu__link" to={link.href}>
                {link.label}
              </Link>
              <span className="admin-menu__note">{link.note}</span>
            </li>
          ))}
        </ul>
      </nav>
      <DashboardBody />
      <Section title="最近の管理操作">
        <RecentActions />
      </Section>
    </section>
  );
}
