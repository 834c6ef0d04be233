import { useEffect, useState } from 'react';
import { getSiteConfig } from '@/config/site';
import type { ProjectDetail } from '../api/types';
import { FUNDING_MODELS, formatClosesAt, formatPeople, formatYen, shareLinks } from '../format';
import { DefaultIcon } from './DefaultIcon';

const isSafeLink = (link: string): boolean => /^https?:\/\//.test(link);

export const COPY_DONE = 'リンクをコピーしました';
export const COPY_FAILED = 'コピーできませんでした。アドレスバーのURLをお使いください。';

/**
 * The page's own address on the site's public origin, without a tab's hash: what a share should point to.
 * From the page's configuration, not `window.location`, so the server renders the same links.
 */
const pageUrl = (slug: string): string => `${getSiteConfig().publicUrl}/projects/${encodeURIComponent(slug)}/`;

/** LINE, X, Facebook and "copy the link", all with the project page's address. */
export function ShareButtons({ project }: { project: ProjectDetail }) {
  const url = pageUrl(project.slug);
  const links = shareLinks(url, project.title);
  const [copied, setCopied] = useState<string | null>(null);

  useEffect(() => {
    if (copied === null) return undefined;
    const timer = window.setTimeout(() => setCopied(null), 4000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(COPY_DONE);
    } catch {
      setCopied(COPY_FAILED);
    }
  };

  return (
    <div className="share" role="group" aria-label="このプロジェクトをシェアする">
      <a className="share__button share__button--line" href={links.line} target="_blank" rel="noopener noreferrer">
        LINEで送る
      </a>
      <a className="share__button share__button--x" href={links.x} target="_blank" rel="noopener noreferrer">
        Xでポスト
      </a>
      <a className="share__button share__button--facebook" href={links.facebook} target="_blank" rel="noopener noreferrer">
        Facebookでシェア
      </a>
      <button type="button" className="share__button share__button--copy" onClick={() => void copy()}>
        リンクをコピー
      </button>
      <p className="share__status" role="status">
        {copied}
      </p>
    </div>
  );
}

/** What the end of a campaign decided, in the words of the project page. */
export const RESULT_MESSAGES = {
  counting: '集計中：募集終了前にお申し込みの銀行振込の入金を確認しています。',
  succeeded: 'プロジェクトは成立しました。',
  failed: 'プロジェクトは不成立となりました。お支払いいただいた支援金は全額返金します。',
  refundsLeft: (count: number) => `返金手続き中（残り${count}件）`,
  refundsDone: 'すべての返金手続きを行いました。',
} as const;

/**
 * The decision of the close (`project.result`), as lines under the figures. An ended project whose result is
 * still null is counted as 集計中: the closing sweep decides it within a minute of the end.
 */
function ResultOutcome({ result }: { result: ProjectDetail['result'] }) {
  if (result === null || result.outcome === 'awaiting_funds') {
    return <p className="result-banner__outcome">{RESULT_MESSAGES.counting}</p>;
  }
  if (result.outcome === 'succeeded') {
    return <p className="result-banner__outcome">{RESULT_MESSAGES.succeeded}</p>;
  }
  return (
    <>
      <p className="result-banner__outcome">{RESULT_MESSAGES.failed}</p>
      <p className="result-banner__refunds">
        返金の状況：
        {result.refundsLeft > 0 ? RESULT_MESSAGES.refundsLeft(result.refundsLeft) : RESULT_MESSAGES.refundsDone}
      </p>
    </>
  );
}

/** 達成 / 未達成 of an ended project, with its total and backers, and what the close decided. */
export function ResultBanner({ project }: { project: ProjectDetail }) {
  if (project.isOpen) return null;
  return (
    <section
      className={`result-banner ${project.achieved ? 'result-banner--achieved' : 'result-banner--missed'}`}
      aria-label="募集結果"
    >
      <p className="result-banner__title">
        このプロジェクトは募集を終了しました（{project.achieved ? '目標金額を達成' : '目標金額に未達成'}）
      </p>
      <p className="result-banner__badge">{project.achieved ? '達成' : '未達成'}</p>
      <p className="result-banner__figures">
        支援総額 <strong>{formatYen(project.sum.amount)}</strong>
        <span aria-hidden="true"> / </span>
        支援者 <strong>{formatPeople(project.sum.lot)}</strong>
      </p>
      <ResultOutcome result={project.result} />
    </section>
  );
}

/** How the money is handled (the terms' two models) and the exact closing minute. */
export function FundingTerms({ project }: { project: ProjectDetail }) {
  const model = FUNDING_MODELS[project.fundingModel];
  return (
    <dl className="funding-terms">
      <div className="funding-terms__row">
        <dt>募集方式</dt>
        <dd>
          <strong>{model.name}</strong>
          <span className="funding-terms__text">{model.text}</span>
        </dd>
      </div>
      <div className="funding-terms__row">
        <dt>募集終了</dt>
        <dd>
          <time dateTime={project.closesAt}>{formatClosesAt(project.closesAt)}</time>
        </dd>
      </div>
    </dl>
  );
}

/** Who runs the project: name, photo, a short text, links. */
export function OwnerProfile({ project }: { project: ProjectDetail }) {
  const owner = project.owner;
  if (!owner) return null;
  const links = owner.links.filter((link) => isSafeLink(link.url));
  return (
    <section className="owner" aria-labelledby="owner-title">
      <h2 id="owner-title" className="project-block__title">プロジェクト実行者</h2>
      <div className="owner__head">
        {owner.imageUrl ? (
          <img className="owner__image" src={owner.imageUrl} alt="" width={72} height={72} loading="lazy" decoding="async" />
        ) : (
          <DefaultIcon />
        )}
        <p className="owner__name">{owner.name}</p>
      </div>
      {owner.profile && <p className="owner__profile">{owner.profile}</p>}
      {links.length > 0 && (
        <ul className="owner__links">
          {links.map((link) => (
            <li key={link.url}>
              <a href={link.url} target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The operator's questions and answers; nothing when there are none. */
export function FaqSection({ project }: { project: ProjectDetail }) {
  if (project.faqs.length === 0) return null;
  return (
    <section className="project-block faq" aria-labelledby="faq-title">
      <h2 id="faq-title" className="project-block__title">よくある質問</h2>
      {project.faqs.map((faq) => (
        <details key={faq.question} className="faq__item">
          <summary className="faq__question">{faq.question}</summary>
          <p className="faq__answer">{faq.answer}</p>
        </details>
      ))}
    </section>
  );
}
