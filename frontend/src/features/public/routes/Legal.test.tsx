import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { BANK_TRANSFER_DEADLINE_TEXT } from '../legal/bankTransfer';

const SITE = 'ぐんまクラウドファンディング';

const clauseHeadings = () => screen.getAllByRole('heading', { level: 2, name: /^第\d+条（.+）$/ });

describe('Legal pages', () => {
  afterEach(() => {
    document.getElementById('site-config')?.remove();
  });

  it('shows the privacy policy with 16 clauses', async () => {
    renderApp('/policy/');

    expect(await screen.findByRole('heading', { level: 1, name: 'プライバシーポリシー' })).toBeInTheDocument();
    expect(clauseHeadings()).toHaveLength(16);
    expect(clauseHeadings()[0]).toHaveTextContent('第1条（基本方針）');
    expect(within(screen.getByRole('main')).getByText(/support@example\.jp/)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`プライバシーポリシー | ${SITE}`));
  });

  it('shows the terms with 25 clauses and three special agreements', async () => {
    renderApp('/terms/');

    expect(await screen.findByRole('heading', { level: 1, name: '利用規約' })).toBeInTheDocument();
    expect(clauseHeadings()).toHaveLength(25);
    expect(screen.getAllByRole('heading', { level: 2, name: /^特約\d（.+）$/ })).toHaveLength(3);
  });

  it('states the fee, payout, transfer, refund, waiver, age and success rules of the terms', async () => {
    renderApp('/terms/');
    await screen.findByRole('heading', { level: 1, name: '利用規約' });
    const text = document.querySelector('.legal')?.textContent ?? '';

    expect(text).toContain('確定金額の20%');
    expect(text).toContain('送金する支援金から差し引く');
    expect(text).toContain('募集期間が終了した月の翌々月の第3営業日');
    expect(text).toContain('申込書に記載された日に送金');
    expect(text).toContain(`${BANK_TRANSFER_DEADLINE_TEXT}に指定の口座へ振り込む`);
    expect(text).not.toContain('3日以内');
    expect(text).toContain('6か月間回答がない場合、当該返金額は当社に帰属');
    expect(text).toContain('6か月間連絡がない場合');
    expect(text).toContain('15歳未満');
    expect(text).toContain('最初の支援がなされた時点で成立');
    expect(text).toContain('目標金額に達した場合に限り成立');
    expect(text).toContain('支援契約はすべて効力を失い、支払われた支援金は支援者に返金');
  });

  it("words the commercial notice as the glossary does (寄附, お申し込み, プロジェクト実行者)", async () => {
    renderApp('/commercial/');

    const main = await screen.findByRole('main');
    await screen.findByRole('heading', { level: 1, name: '特定商取引法に基づく表記' });
    expect(main).toHaveTextContent('寄附型プロジェクトの支援金');
    expect(main).toHaveTextContent('プロジェクト実行者からお届けします');
    expect(main).toHaveTextContent('お申し込み後のキャンセル');
    expect(main.textContent).not.toMatch(/寄付|お申込み|起案者/);
  });

  it('shows the commercial notice as a table with the default operator', async () => {
    renderApp('/commercial/');

    const table = await screen.findByRole('table', { name: '特定商取引法に基づく表記' });
    const row = (label: string) => within(table).getByRole('rowheader', { name: label }).closest('tr')!;
    expect(row('販売事業者')).toHaveTextContent('株式会社ぐんま地域新聞（運営事務局）');
    expect(row('所在地')).toHaveTextContent('群馬県前橋市本町一丁目1番1号');
    expect(row('電話番号')).toHaveTextContent('027-000-0000');
    expect(row('メールアドレス')).toHaveTextContent('support@example.jp');
    expect(row('お支払い方法')).toHaveTextContent('クレジットカード決済');
    expect(row('お支払い方法')).toHaveTextContent('国内の銀行振込');
    // The same transfer deadline as the terms and the domain's deadline function (3 business days).
    expect(row('お支払い時期')).toHaveTextContent(`銀行振込：${BANK_TRANSFER_DEADLINE_TEXT}にお振り込みください`);
    expect(row('販売価格')).toHaveTextContent('税込');
    for (const label of ['運営責任者', '販売価格', '商品代金以外の必要料金', 'お支払い時期', 'リターンの引渡し時期', '返品・キャンセル']) {
      expect(row(label)).toBeInTheDocument();
    }
  });

  it('uses the operator the server writes into the page', async () => {
    const block = document.createElement('script');
    block.id = 'site-config';
    block.type = 'application/json';
    block.textContent = JSON.stringify({ operator: { name: '上州テスト株式会社', phone: '027-111-2222', email: '' } });
    document.head.append(block);
    renderApp('/commercial/');

    const table = await screen.findByRole('table', { name: '特定商取引法に基づく表記' });
    expect(within(table).getByRole('rowheader', { name: '販売事業者' }).closest('tr')).toHaveTextContent('上州テスト株式会社');
    expect(within(table).getByRole('rowheader', { name: '電話番号' }).closest('tr')).toHaveTextContent('027-111-2222');
    // Empty values keep the default.
    expect(within(table).getByRole('rowheader', { name: 'メールアドレス' }).closest('tr')).toHaveTextContent('support@example.jp');
  });
});
