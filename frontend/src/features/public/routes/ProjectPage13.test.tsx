import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { card, comment, detail, mockProjectPage, ret } from '../testing/fixtures';

const PATH = '/projects/maebashi-fes/';

describe('Project page (issue #13)', () => {
  it('opens the tab its URL names and writes the tab into the URL, with counts', async () => {
    mockProjectPage({ comments: [comment(), comment({ id: 6 })] });
    const { router } = renderApp(`${PATH}#comments`);

    const comments = await screen.findByRole('tab', { name: '応援コメント 2件' });
    expect(comments).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('tab', { name: '活動報告 1件' })).toHaveAttribute('aria-selected', 'false');

    await userEvent.setup().click(screen.getByRole('tab', { name: /^活動報告/ }));
    expect(router.location.hash).toBe('#news');
    expect(screen.getByRole('tab', { name: /^活動報告/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows the owner, the FAQ, the funding model in words and the closing minute', async () => {
    mockProjectPage({
      project: detail({
        fundingModel: 'all_or_nothing',
        closesAt: '2026-12-31T23:59:00+09:00',
        owner: {
          name: '前橋夏祭り実行委員会',
          imageUrl: null,
          profile: '商店街の有志です。',
          links: [{ label: '公式サイト', url: 'https://example.jp/' }, { label: '危険', url: 'javascript:alert(1)' }],
        },
        faqs: [{ question: '雨天の場合は？', answer: '翌週に延期します。' }],
      }),
    });
    renderApp(PATH);

    const owner = await screen.findByRole('region', { name: 'プロジェクト実行者' });
    expect(owner).toHaveTextContent('前橋夏祭り実行委員会');
    expect(owner).toHaveTextContent('商店街の有志です。');
    expect(within(owner).getByRole('link', { name: '公式サイト' })).toHaveAttribute('href', 'https://example.jp/');
    expect(within(owner).queryByRole('link', { name: '危険' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'よくある質問' })).toHaveTextContent('雨天の場合は？');
    expect(screen.getByText('オールオアナッシング方式')).toBeInTheDocument();
    expect(screen.getByText('2026年12月31日（木）23:59まで')).toBeInTheDocument();
  });

  it('ends with the related projects as cards, and without the section when there is none', async () => {
    mockProjectPage({
      project: detail({ related: [card({ id: 9, slug: 'takasaki-daruma', title: '高崎だるまの工房を守る' })] }),
    });
    renderApp(PATH);

    const related = await screen.findByRole('region', { name: '関連するプロジェクト' });
    const article = within(related).getByRole('article', { name: '高崎だるまの工房を守る' });
    expect(within(article).getByRole('link', { name: '詳しく見る' })).toHaveAttribute('href', '/projects/takasaki-daruma/');
  });

  it('leaves out the owner box and the FAQ when the operator gave none', async () => {
    mockProjectPage();
    renderApp(PATH);

    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: '関連するプロジェクト' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'プロジェクト実行者' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'よくある質問' })).not.toBeInTheDocument();
    expect(screen.getByText('オールイン方式')).toBeInTheDocument();
  });

  it('tells the result of an ended project and offers a disabled 募集終了 instead of support', async () => {
    mockProjectPage({
      project: detail({
        isOpen: false,
        daysLeft: 0,
        achieved: false,
        sum: { amount: 480_000, lot: 31 },
        returns: [ret({ purchasable: false, blockReason: 'ended', blockMessage: '支援上限に達しました' })],
      }),
    });
    renderApp(PATH);

    const banner = await screen.findByRole('region', { name: '募集結果' });
    expect(banner).toHaveTextContent('未達成');
    expect(banner).toHaveTextContent('480,000円');
    expect(banner).toHaveTextContent('31人');
    const closed = screen.getAllByRole('button', { name: '募集終了' });
    expect(closed.length).toBeGreaterThanOrEqual(2);
    for (const button of closed) expect(button).toBeDisabled();
    expect(screen.queryByRole('button', { name: /支援する/ })).not.toBeInTheDocument();
  });

  it.each([
    ['null (the close has not run yet)', null, '集計中：募集終了前にお申し込みの銀行振込の入金を確認しています。'],
    [
      'awaiting_funds',
      { outcome: 'awaiting_funds', label: '集計中', refundsLeft: 0 } as const,
      '集計中：募集終了前にお申し込みの銀行振込の入金を確認しています。',
    ],
    ['succeeded', { outcome: 'succeeded', label: '成立', refundsLeft: 0 } as const, 'プロジェクトは成立しました。'],
  ])('keeps 達成 and its title line, and says what the close decided when the result is %s', async (_name, result, line) => {
    mockProjectPage({ project: detail({ isOpen: false, daysLeft: 0, achieved: true, result }) });
    renderApp(PATH);

    const banner = await screen.findByRole('region', { name: '募集結果' });
    expect(banner).toHaveTextContent('このプロジェクトは募集を終了しました（目標金額を達成）');
    expect(within(banner).getByText('達成', { exact: true })).toBeInTheDocument();
    expect(within(banner).getByText(line)).toBeInTheDocument();
    expect(banner).not.toHaveTextContent('不成立');
    expect(banner).not.toHaveTextContent('返金の状況');
  });

  it('says a failed project refunds everything, and how many refunds are left', async () => {
    mockProjectPage({
      project: detail({
        isOpen: false,
        daysLeft: 0,
        achieved: false,
        fundingModel: 'all_or_nothing',
        result: { outcome: 'failed', label: '不成立', refundsLeft: 3 },
      }),
    });
    renderApp(PATH);

    const banner = await screen.findByRole('region', { name: '募集結果' });
    expect(banner).toHaveTextContent('このプロジェクトは募集を終了しました（目標金額に未達成）');
    expect(within(banner).getByText('未達成', { exact: true })).toBeInTheDocument();
    expect(
      within(banner).getByText('プロジェクトは不成立となりました。お支払いいただいた支援金は全額返金します。'),
    ).toBeInTheDocument();
    expect(within(banner).getByText('返金の状況：返金手続き中（残り3件）')).toBeInTheDocument();
    expect(banner).not.toHaveTextContent('集計中');
  });

  it('says every refund of a failed project has been made once none is left', async () => {
    mockProjectPage({
      project: detail({
        isOpen: false,
        daysLeft: 0,
        achieved: false,
        result: { outcome: 'failed', label: '不成立', refundsLeft: 0 },
      }),
    });
    renderApp(PATH);

    const banner = await screen.findByRole('region', { name: '募集結果' });
    expect(within(banner).getByText('返金の状況：すべての返金手続きを行いました。')).toBeInTheDocument();
    expect(banner).not.toHaveTextContent('返金手続き中');
  });

  it('shows no result while the project is open', async () => {
    mockProjectPage({ project: detail({ isOpen: true, result: null }) });
    renderApp(PATH);

    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: '募集結果' })).not.toBeInTheDocument();
    expect(screen.queryByText(/集計中/)).not.toBeInTheDocument();
  });

  it('shows each return with its backers, stock, delivery month and its own image or none', async () => {
    mockProjectPage({
      project: detail({
        returns: [
          ret({ id: 1, title: '苗木', supporters: 3, limit: 50, remaining: 12, deliveryMonth: '2027-03', imageSrc: '/media/a.svg' }),
          ret({ id: 2, title: 'お礼状', supporters: 0, limit: null, remaining: null, imageSrc: null }),
        ],
      }),
    });
    renderApp(PATH);

    const first = await screen.findByRole('article', { name: '苗木' });
    expect(first).toHaveTextContent('3人');
    expect(first).toHaveTextContent('残り12 / 限定50');
    expect(first).toHaveTextContent('2027年3月お届け予定');
    expect(within(first).getByRole('img')).toHaveAttribute('src', '/media/a.svg');
    const second = screen.getByRole('article', { name: 'お礼状' });
    expect(second).toHaveTextContent('数量制限なし');
    expect(within(second).queryByRole('img')).not.toBeInTheDocument();
  });

  it('pages through comments ten at a time with the bar the server sends', async () => {
    mockProjectPage();
    const pages: string[] = [];
    server.use(
      http.get(apiUrl('/comment/get/list'), ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        pages.push(String(page));
        return HttpResponse.json({
          comments: [comment({ id: page * 100, comment: `ページ${page}の最新` })],
          total: 61,
          pagination: { page, pages: 7, perPage: 10, items: page === 1 ? [1, 2, 3, null, 7] : [1, null, 6, 7] },
        });
      }),
    );
    const user = userEvent.setup();
    renderApp(`${PATH}#comments`);

    const panel = await screen.findByRole('tabpanel', { name: /^応援コメント/ });
    await within(panel).findByText('ページ1の最新');
    const bar = within(panel).getByRole('navigation', { name: 'コメントのページ' });
    expect(within(bar).getByRole('button', { name: '1ページ目' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(bar).getByRole('button', { name: '7ページ目' }));
    expect(await within(panel).findByText('ページ7の最新')).toBeInTheDocument();
    await waitFor(() => expect(pages).toContain('7'));
  });
});
