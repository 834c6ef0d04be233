import { SITE_NAME, getSiteConfig } from '@/config/site';
import { BANK_TRANSFER_DEADLINE_TEXT } from '../legal/bankTransfer';
import { ClauseList } from '../legal/LegalText';
import { policyClauses } from '../legal/policy';
import { termsClauses, termsSpecialAgreements } from '../legal/terms';

const ENACTED = '2026年11月1日 制定';

/** `/policy/`: the privacy policy, 16 clauses. */
export function Policy() {
  const { operator } = getSiteConfig();
  return (
    <article className="page legal" aria-labelledby="policy-title">
      <h1 id="policy-title" className="page__title">プライバシーポリシー</h1>
      <p className="legal__lead">
        {operator.name}は、「{SITE_NAME}」をご利用いただく皆さまの個人情報を、以下の方針に基づき大切に取り扱います。
      </p>
      <ClauseList clauses={policyClauses(operator, SITE_NAME)} />
      <p className="legal__date">{ENACTED}</p>
    </article>
  );
}

/** `/terms/`: the terms of use, 25 clauses and three special agreements. */
export function Terms() {
  const { operator } = getSiteConfig();
  return (
    <article className="page legal" aria-labelledby="terms-title">
      <h1 id="terms-title" className="page__title">利用規約</h1>
      <p className="legal__lead">「{SITE_NAME}」をご利用になる前に、必ず本規約をお読みください。</p>
      <ClauseList clauses={termsClauses(operator, SITE_NAME)} />
      <section className="legal__special" aria-labelledby="special-title">
        <h2 id="special-title" className="legal__part">特約</h2>
        <ClauseList clauses={termsSpecialAgreements()} label={(n) => `特約${n}`} />
      </section>
      <p className="legal__date">{ENACTED}</p>
    </article>
  );
}

/** `/commercial/`: the notice under the Act on Specified Commercial Transactions. */
export function Commercial() {
  const { operator } = getSiteConfig();
  const rows: Array<[string, string]> = [
    ['販売事業者', operator.name],
    ['運営責任者', operator.representative],
    ['所在地', operator.address],
    ['電話番号', `${operator.phone}（受付時間：${operator.hours}）`],
    ['メールアドレス', operator.email],
    ['販売価格', '各プロジェクトのリターンごとに、消費税込みの価格（税込）で表示しています。寄附型プロジェクトの支援金に消費税はかかりません。'],
    ['商品代金以外の必要料金', '銀行振込の場合の振込手数料、インターネット接続に必要な通信料はお客様のご負担となります。'],
    ['お支払い方法', 'クレジットカード決済（Visa、Mastercard、American Express、JCB、Diners Club、Discover）、国内の銀行振込'],
    [
      'お支払い時期',
      `クレジットカード決済：支援のお申し込み時に決済されます。銀行振込：${BANK_TRANSFER_DEADLINE_TEXT}にお振り込みください。`,
    ],
    [
      'リターンの引渡し時期',
      '各プロジェクトページに記載の時期に、プロジェクト実行者からお届けします。オールオアナッシング方式のプロジェクトは、目標金額に達した場合に限りお届けします。',
    ],
    [
      '返品・キャンセル',
      'リターンの性質上、お申し込み後のキャンセル及び返品はお受けできません。プロジェクトが中止又は不成立となった場合は、支援金を返金します。リターンに不良があった場合は、到着後7日以内にご連絡ください。',
    ],
  ];
  return (
    <article className="page legal" aria-labelledby="commercial-title">
      <h1 id="commercial-title" className="page__title">特定商取引法に基づく表記</h1>
      <table className="legal__table">
        <caption className="visually-hidden">特定商取引法に基づく表記</caption>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
