import type { ReactNode } from 'react';
import { formatYen } from '../format';
import type { Statement } from './types';

type Tone = 'sub' | 'total' | 'warning';

function Line({ label, amount, tone }: { label: ReactNode; amount: number; tone?: Tone }) {
  const value = formatYen(amount);
  return (
    <tr className={tone ? `statement-figures__row statement-figures__row--${tone}` : 'statement-figures__row'}>
      <th scope="row">{label}</th>
      <td className="admin-num">{tone === 'total' || tone === 'warning' ? <strong>{value}</strong> : value}</td>
    </tr>
  );
}

/**
 * The amounts of a statement exactly as the server gives them (it reconciles them to the yen): the confirmed total
 * and its split, what is deducted, and what is paid now or owed back. Rows of a collection the project did not use,
 * and of nothing carried or owed, are left out.
 */
export function FiguresTable({ statement }: { statement: Statement }) {
  const { figures } = statement;
  const connected = figures.applicationFees > 0 || figures.receivedDirectly > 0;
  return (
    <table className="statement-figures">
      <caption className="statement-figures__caption">精算内容（税込）</caption>
      <thead className="visually-hidden">
        <tr>
          <th scope="col">項目</th>
          <th scope="col">金額</th>
        </tr>
      </thead>
      <tbody>
        <Line label="確定金額（支援額－返金）" amount={figures.confirmed} />
        <Line label="うちクレジットカード" amount={statement.card} tone="sub" />
        <Line label="うち銀行振込" amount={statement.bank} tone="sub" />
        <Line label="手数料（20%・税込）" amount={figures.platformFee} />
        <Line label="うち消費税（10%）" amount={figures.platformFeeTax} tone="sub" />
        {connected && (
          <>
            <Line label="決済時に差し引かれた手数料" amount={figures.applicationFees} />
            <Line label="実行者が直接受け取った額" amount={figures.receivedDirectly} />
          </>
        )}
        <Line label="振込手数料" amount={figures.transferFee} />
        {figures.carriedOver > 0 && <Line label="既払額（前回までの精算）" amount={figures.carriedOver} />}
        <Line label="今回のお支払額" amount={figures.payout} tone="total" />
        {figures.owedByOwner > 0 && <Line label="実行者への返還請求額" amount={figures.owedByOwner} tone="warning" />}
      </tbody>
    </table>
  );
}
