import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import { tokyoDay } from './format';
import type { MarkPaidInput, Statement } from './payouts/types';
import { figures, paidStatement, statement } from './testing/payouts';

const SITE = 'ぐんまクラウドファンディング';
const PATH = '/admin/payouts/3/';
const CHANGED =
  '精算の内容が変わりました（返金や入金があったため）。画面を再読み込みして確認してから登録してください。';

/** Answers the statement with each of `answers` in turn (the last one from then on); counts the reads. */
const serveStatement = (...answers: Statement[]): { reads: number } => {
  const counter = { reads: 0 };
  server.use(
    http.get(apiUrl('/admin/payouts/3'), () => {
      const answer = answers[Math.min(counter.reads, answers.length - 1)];
      counter.reads += 1;
      return HttpResponse.json(answer);
    }),
  );
  return counter;
};

/** The amount on the row of the statement's table whose heading is `label`. */
const amountOf = (label: string): string => {
  const table = screen.getByRole('table', { name: '精算内容（税込）' });
  const row = within(table).getByRole('rowheader', { name: label }).closest('tr');
  return within(row!).getByRole('cell').textContent ?? '';
};

const SETTLED = statement({
  seq: 2,
  status: 'settled',
  statusLabel: '精算済み',
  figures: figures({ transferFee: 0, carriedOver: 296_000, payout: 0 }),
  paid: [paidStatement({ reference: '桐生信金 控0012' })],
});

describe('a statement (/admin/payouts/:id/)', () => {
  it('shows the project, its dates and the server’s figures, and prints', async () => {
    loginAs({ isAdmin: true });
    serveStatement(statement());
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp(PATH);

    expect(await screen.findByRole('heading', { level: 1, name: '精算書' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`精算書 | ${SITE}`));
    expect(screen.getByText('桐生織 機場（はたば）再生プロジェクト')).toBeInTheDocument();
    const meta = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(meta('募集終了日')).toBe('2026年11月18日');
    expect(meta('支払予定日')).toBe('2027年1月6日（募集終了月の翌々月第3営業日）');
    expect(meta('精算回')).toBe('第1回');
    expect(meta('状態')).toBe('未精算');

    expect(amountOf('確定金額（支援額－返金）')).toBe('370,000円');
    expect(amountOf('うちクレジットカード')).toBe('250,000円');
    expect(amountOf('うち銀行振込')).toBe('120,000円');
    expect(amountOf('手数料（20%・税込）')).toBe('74,000円');
    expect(amountOf('うち消費税（10%）')).toBe('6,727円');
    expect(amountOf('振込手数料')).toBe('660円');
    expect(amountOf('今回のお支払額')).toBe('295,340円');
    expect(screen.getByText('295,340円').tagName).toBe('STRONG');
    // Rows of a collection not used, of nothing carried and nothing owed are left out.
    for (const absent of ['決済時に差し引かれた手数料', '実行者が直接受け取った額', '既払額（前回までの精算）', '実行者への返還請求額']) {
      expect(screen.queryByRole('rowheader', { name: absent })).not.toBeInTheDocument();
    }
    expect(screen.getByText('まだ支払済みの精算はありません。')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '印刷する' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('shows what a connected account kept, what was paid before and what the owner owes back', async () => {
    loginAs({ isAdmin: true });
    serveStatement(
      statement({
        seq: 2,
        figures: figures({
          platformFee: 0,
          platformFeeTax: 0,
          applicationFees: 37_000,
          receivedDirectly: 333_000,
          transferFee: 0,
          carriedOver: 5_000,
          payout: 0,
          owedByOwner: 5_000,
        }),
        paid: [paidStatement()],
      }),
    );
    renderApp(PATH);

    await screen.findByRole('heading', { level: 1, name: '精算書' });
    expect(amountOf('決済時に差し引かれた手数料')).toBe('37,000円');
    expect(amountOf('実行者が直接受け取った額')).toBe('333,000円');
    expect(amountOf('既払額（前回までの精算）')).toBe('5,000円');
    expect(amountOf('今回のお支払額')).toBe('0円');
    const owed = screen.getByRole('rowheader', { name: '実行者への返還請求額' }).closest('tr')!;
    expect(owed).toHaveClass('statement-figures__row--warning');
    expect(within(owed).getByRole('cell')).toHaveTextContent('5,000円');
  });

  it('lists the statements already paid', async () => {
    loginAs({ isAdmin: true });
    serveStatement(SETTLED);
    renderApp(PATH);

    const history = await screen.findByRole('region', { name: '支払済みの精算' });
    const row = within(history).getByRole('row', { name: /第1回/ });
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '2027年1月6日', '桐生信金 控0012', '295,340円',
    ]);
  });

  it('says 精算済み and offers no form once every yen is paid', async () => {
    loginAs({ isAdmin: true });
    serveStatement(SETTLED);
    renderApp(PATH);

    await screen.findByRole('heading', { level: 1, name: '精算書' });
    expect(screen.getByText('この精算書の金額はすべて支払済みです。', { exact: false })).toHaveTextContent(
      '精算済み：この精算書の金額はすべて支払済みです。',
    );
    expect(screen.queryByRole('region', { name: '支払済みにする' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '支払済みとして登録する' })).not.toBeInTheDocument();
    expect(screen.queryByText('精算回', { selector: 'dt' })).not.toBeInTheDocument();
  });

  it('marks the statement paid after a confirmation that shows the amount, with the figures it showed', async () => {
    loginAs({ isAdmin: true });
    serveStatement(statement());
    const next = statement({ ...SETTLED, paid: [paidStatement({ reference: '桐生信金 控0012', paidOn: '2026-11-20' })] });
    const sent = answerPost<MarkPaidInput>('/admin/payouts/3/paid', next);
    server.use(http.get(apiUrl('/admin/payouts'), () => HttpResponse.json({ payouts: [next] })));
    const user = userEvent.setup();
    renderApp(PATH);

    const form = await screen.findByRole('region', { name: '支払済みにする' });
    const paidOn = within(form).getByLabelText('支払日');
    expect(paidOn).toHaveAttribute('type', 'date');
    expect(paidOn).toHaveValue(tokyoDay(new Date()));
    expect(paidOn).toHaveAttribute('max', tokyoDay(new Date()));
    const reference = within(form).getByLabelText('振込の控え番号・メモ');
    expect(reference).toHaveAttribute('maxlength', '100');
    await user.clear(paidOn);
    await user.type(paidOn, '2026-11-20');
    await user.type(reference, '  桐生信金 控0012 ');
    await user.click(within(form).getByRole('button', { name: '支払済みとして登録する' }));

    const dialog = await screen.findByRole('dialog', { name: '支払済みの登録の確認' });
    expect(dialog).toHaveTextContent('今回のお支払額 295,340円 を、2026年11月20日に支払済みとして登録します。');
    expect(sent).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: '登録する' }));

    expect(await screen.findByRole('status')).toHaveTextContent('支払済みとして登録しました。');
    expect(sent).toEqual([
      { expectedPayout: 295_340, expectedOwed: 0, paidOn: '2026-11-20', reference: '桐生信金 控0012' },
    ]);
    expect(screen.getByText('精算済み', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: '支払済みにする' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '支払済みの精算' })).getByRole('row', { name: /第1回/ })).toHaveTextContent(
      '2026年11月20日',
    );
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    loginAs({ isAdmin: true });
    serveStatement(statement());
    const sent = answerPost('/admin/payouts/3/paid', statement());
    const user = userEvent.setup();
    renderApp(PATH);

    await user.type(await screen.findByLabelText('振込の控え番号・メモ'), '控0012');
    await user.click(screen.getByRole('button', { name: '支払済みとして登録する' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'キャンセル' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('asks for the reference before confirming', async () => {
    loginAs({ isAdmin: true });
    serveStatement(statement());
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByRole('button', { name: '支払済みとして登録する' }));

    const reference = screen.getByLabelText('振込の控え番号・メモ');
    expect(reference).toHaveAttribute('aria-invalid', 'true');
    expect(reference).toHaveAccessibleDescription(expect.stringContaining('振込の控え番号・メモを入力してください。'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(reference).toHaveFocus());
  });

  it('shows the server’s field errors under their inputs', async () => {
    loginAs({ isAdmin: true });
    serveStatement(statement());
    answerPost('/admin/payouts/3/paid', {
      status: 400,
      body: {
        error: 'validation_failed',
        message: '支払日は今日以前の日付を入力してください。',
        field: 'paidOn',
        errors: [{ field: 'paidOn', message: '支払日は今日以前の日付を入力してください。' }],
      },
    });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.type(await screen.findByLabelText('振込の控え番号・メモ'), '控0012');
    await user.click(screen.getByRole('button', { name: '支払済みとして登録する' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '登録する' }));

    const paidOn = screen.getByLabelText('支払日');
    await waitFor(() => expect(paidOn).toHaveAttribute('aria-invalid', 'true'));
    expect(paidOn).toHaveAccessibleDescription('支払日は今日以前の日付を入力してください。');
    expect(screen.getByLabelText('振込の控え番号・メモ')).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText('支払済みとして登録しました。')).not.toBeInTheDocument();
  });

  it('says the figures changed and reads the statement again on a conflict', async () => {
    loginAs({ isAdmin: true });
    const reads = serveStatement(
      statement(),
      statement({ card: 245_000, figures: figures({ confirmed: 365_000, platformFee: 73_000, platformFeeTax: 6_636, payout: 291_340 }) }),
    );
    server.use(http.get(apiUrl('/admin/payouts'), () => HttpResponse.json({ payouts: [] })));
    const sent = answerPost<MarkPaidInput>('/admin/payouts/3/paid', {
      status: 409,
      body: { error: 'payout_changed', message: CHANGED },
    });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.type(await screen.findByLabelText('振込の控え番号・メモ'), '控0012');
    await user.click(screen.getByRole('button', { name: '支払済みとして登録する' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '登録する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(CHANGED);
    await waitFor(() => expect(amountOf('今回のお支払額')).toBe('291,340円'));
    expect(reads.reads).toBe(2);
    expect(sent[0]).toMatchObject({ expectedPayout: 295_340, expectedOwed: 0 });
    // The reference stays typed; the next attempt sends the figures now shown.
    expect(screen.getByLabelText('振込の控え番号・メモ')).toHaveValue('控0012');
    await user.click(screen.getByRole('button', { name: '支払済みとして登録する' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('今回のお支払額 291,340円');
  });

  it('shows the server’s message for a project that has no statement', async () => {
    loginAs({ isAdmin: true });
    server.use(
      http.get(apiUrl('/admin/payouts/3'), () =>
        HttpResponse.json(
          {
            error: 'no_statement',
            message: 'このプロジェクトの精算書はありません（成立したプロジェクトにだけ作られます）。',
          },
          { status: 404 },
        ),
      ),
    );
    renderApp(PATH);

    expect(
      await screen.findByText('このプロジェクトの精算書はありません（成立したプロジェクトにだけ作られます）。'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '精算の一覧へ' })).toHaveAttribute('href', '/admin/payouts/');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers a retry when the statement cannot be read', async () => {
    loginAs({ isAdmin: true });
    server.use(
      http.get(apiUrl('/admin/payouts/3'), () =>
        HttpResponse.json({ error: 'internal_error', message: 'エラーが発生しました。' }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    renderApp(PATH);

    expect(await screen.findByRole('alert')).toHaveTextContent('エラーが発生しました。');
    serveStatement(statement());
    await user.click(screen.getByRole('button', { name: '再読み込みする' }));
    expect(await screen.findByRole('table', { name: '精算内容（税込）' })).toBeInTheDocument();
  });

  it('is the not-found page for an address that names no project', async () => {
    loginAs({ isAdmin: true });
    renderApp('/admin/payouts/abc/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });
});

describe('tokyoDay', () => {
  it('is the calendar day in Tokyo, which starts nine hours before UTC’s', () => {
    expect(tokyoDay(new Date('2026-11-30T14:59:59Z'))).toBe('2026-11-30');
    expect(tokyoDay(new Date('2026-11-30T15:00:00Z'))).toBe('2026-12-01');
  });
});
