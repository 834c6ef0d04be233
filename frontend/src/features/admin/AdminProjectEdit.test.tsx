import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs } from '@/testing/session';
import type { PublishInput, ProjectInput, ReturnInput, ReturnOrderInput } from './projects/types';
import { adminProject, adminReturn, answerProjectPost, publishedProject, serveProject } from './testing/projects';

const SITE = 'ぐんまクラウドファンディング';

/** The control a label names, and the texts that describe it (hint, lock note, error). */
const descriptionOf = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('a new project (/admin/projects/new)', () => {
  // A whole form filled and sent twice: seconds of CPU on a busy machine, so more than the default 5 s.
  it('sends every field, shows the server’s message next to the field it names, then opens the new project', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    const { router } = renderApp('/admin/projects/new');
    expect(await screen.findByRole('heading', { level: 1, name: '新しいプロジェクト' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`新しいプロジェクト | ${SITE}`));
    expect(await screen.findByRole('textbox', { name: '本文' })).toBeInTheDocument();

    // Pasted, not typed key by key: the form is the same, and the test no longer needs seconds of CPU.
    const fill = async (label: string, text: string) => {
      await user.click(screen.getByLabelText(label));
      await user.paste(text);
    };
    await fill('タイトル', '桐生織の工房を次の世代へ');
    await fill('URL（/projects/◯◯/ の◯◯）', 'kiryu-textile');
    await fill('リード文', '百年続く工房の織機を直します。');
    await fill('目標金額（円）', '2000000');
    await user.type(screen.getByLabelText('終了日'), '2027-01-31');
    await user.click(screen.getByRole('radio', { name: 'All-or-Nothing（目標達成時のみ実施）' }));
    await user.click(screen.getByRole('radio', { name: '寄附（非課税）' }));
    // A donation project is paid out on its own date, which only a donation project asks for.
    const payoutDay = screen.getByLabelText('寄附の支払日');
    expect(payoutDay).toHaveAttribute('min', '2027-02-01');
    await user.type(payoutDay, '2027-03-15');
    await user.click(screen.getByRole('checkbox', { name: '銀行振込' }));
    const area = screen.getByRole('combobox', { name: /^地域/ });
    await waitFor(() => expect(area).toBeEnabled());
    await user.selectOptions(area, '桐生市');
    await user.selectOptions(screen.getByRole('combobox', { name: /^カテゴリー/ }), '文化・芸術');
    const refused = answerPost<ProjectInput>('/admin/projects', {
      status: 400,
      body: { error: 'validation_failed', message: 'このURLは既に使われています', field: 'slug' },
    });

    await user.click(screen.getByRole('button', { name: '保存する' }));

    const slug = screen.getByLabelText('URL（/projects/◯◯/ の◯◯）');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^このURLは既に使われています$/);
    expect(slug).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionOf(slug)).toContain('このURLは既に使われています');
    expect(slug).toHaveFocus();
    expect(refused).toEqual([
      {
        slug: 'kiryu-textile',
        title: '桐生織の工房を次の世代へ',
        lead: '百年続く工房の織機を直します。',
        story: '',
        goal: 2_000_000,
        periodEnd: '2027-01-31',
        fundingModel: 'all_or_nothing',
        taxHandling: 'donation',
        acceptsCard: true,
        acceptsBankTransfer: false,
        acceptsKonbini: false,
        areaId: 3,
        categoryId: 2,
        ownerEmail: null,
        donationPayoutDate: '2027-03-15',
      },
    ]);

    await user.clear(slug);
    await user.type(slug, 'kiryu-textile-2');
    const created = adminProject({ slug: 'kiryu-textile-2', fundingModel: 'all_or_nothing', taxHandling: 'donation' });
    const sent = answerPost<ProjectInput>('/admin/projects', created);
    serveProject(created);
    await user.click(screen.getByRole('button', { name: '保存する' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'プロジェクトの編集' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/admin/projects/12/');
    expect(sent[0]?.slug).toBe('kiryu-textile-2');
    expect(await screen.findByText('保存しました。')).toBeInTheDocument();
    expect(screen.getByText('保存しました。').closest('[role="status"]')).not.toBeNull();
    await waitFor(() => expect(document.title).toBe(`プロジェクトの編集 | ${SITE}`));
  }, 15_000);

  it('puts a payment message by the payment boxes, and one that names no field on top of the form', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    renderApp('/admin/projects/new');
    await screen.findByRole('heading', { level: 1, name: '新しいプロジェクト' });
    answerPost('/admin/projects', {
      status: 400,
      body: { error: 'validation_failed', message: '支払い方法を1つ以上選んでください', field: 'acceptsCard' },
    });
    await user.click(screen.getByRole('checkbox', { name: 'クレジットカード' }));
    await user.click(screen.getByRole('checkbox', { name: '銀行振込' }));
    await user.click(screen.getByRole('button', { name: '保存する' }));

    const payment = screen.getByRole('group', { name: '支払い方法' });
    expect(await within(payment).findByRole('alert')).toHaveTextContent('支払い方法を1つ以上選んでください');

    answerPost('/admin/projects', { status: 500, body: { error: 'internal_error', message: 'エラーが発生しました。' } });
    await user.click(screen.getByRole('button', { name: '保存する' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['エラーが発生しました。']);
  });
});

describe('a project’s edit page (/admin/projects/:id/)', () => {
  it('shows the fields locked after publication disabled, with the reason', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');

    const goal = await screen.findByLabelText('目標金額（円）');
    expect(goal).toBeDisabled();
    expect(goal).toHaveValue('2000000');
    expect(descriptionOf(goal)).toContain('公開後は変更できません');
    // The address may change: the form says the old one will redirect.
    const slug = screen.getByLabelText('URL（/projects/◯◯/ の◯◯）');
    expect(slug).toBeEnabled();
    expect(descriptionOf(slug)).toContain('これまでのURLは新しいURLへ転送されます');
    expect(screen.getByRole('radio', { name: 'All-in（実施確約）' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: '税込' })).toBeDisabled();
    expect(screen.getByRole('group', { name: '実施方式' })).toHaveAccessibleDescription('公開後は変更できません');
    // What stays editable.
    expect(screen.getByLabelText('タイトル')).toBeEnabled();
    expect(screen.getByLabelText('終了日')).toBeEnabled();
    expect(descriptionOf(screen.getByLabelText('終了日'))).toContain('公開後は延長のみできます（あと2回）');
    expect(screen.getByText('公開中')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '公開ページを見る' })).toHaveAttribute('href', '/projects/kiryu-textile/');
    expect(screen.queryByRole('button', { name: '公開する' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'プレビュー' })).not.toBeInTheDocument();
  });

  it('sends the owner’s address, or null when cleared, and shows the server’s message by its field', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject({ ownerEmail: 'old@example.jp' }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const owner = await screen.findByLabelText('プロジェクト実行者のメールアドレス');
    expect(owner).toHaveValue('old@example.jp');
    expect(descriptionOf(owner)).toContain('募集終了の結果と精算のお知らせを送ります');
    await user.clear(owner);
    await user.type(owner, 'owner@');
    const message = 'プロジェクト実行者のメールアドレスを正しい形式（254文字以内）で入力してください。';
    const refused = answerProjectPost<ProjectInput>('', {
      status: 400,
      body: { error: 'validation_failed', message, field: 'ownerEmail' },
    });
    await user.click(screen.getByRole('button', { name: '保存する' }));
    await waitFor(() => expect(descriptionOf(owner)).toContain(message));
    expect(owner).toHaveAttribute('aria-invalid', 'true');
    expect(refused).toEqual([expect.objectContaining({ ownerEmail: 'owner@' })]);

    await user.clear(owner);
    const sent = answerProjectPost<ProjectInput>('', adminProject({ ownerEmail: null }));
    await user.click(screen.getByRole('button', { name: '保存する' }));
    expect(await screen.findByText('保存しました。')).toBeInTheDocument();
    expect(sent).toEqual([expect.objectContaining({ ownerEmail: null })]);
  });

  it('saves a change and says so', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject());
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const title = await screen.findByLabelText('タイトル');
    await user.clear(title);
    await user.type(title, '桐生織の工房を未来へ');
    const sent = answerProjectPost<ProjectInput>('', adminProject({ title: '桐生織の工房を未来へ' }));
    await user.click(screen.getByRole('button', { name: '保存する' }));

    expect(await screen.findByText('保存しました。')).toBeInTheDocument();
    expect(screen.getByText('保存しました。').closest('[role="status"]')).not.toBeNull();
    expect(sent).toEqual([expect.objectContaining({ title: '桐生織の工房を未来へ', slug: 'kiryu-textile', goal: 2_000_000 })]);
  });

  it('schedules the publication at a chosen Tokyo time through the confirmation dialog', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject({ returns: [adminReturn()] }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    expect(await screen.findByRole('link', { name: 'プレビュー' })).toHaveAttribute('href', '/admin/projects/12/preview');
    await user.click(screen.getByRole('button', { name: '公開する' }));
    const dialog = screen.getByRole('dialog', { name: '公開の確認' });
    expect(within(dialog).getByRole('radio', { name: '今すぐ公開' })).toBeChecked();

    await user.click(within(dialog).getByRole('radio', { name: '日時を指定して公開' }));
    await user.click(within(dialog).getByRole('button', { name: '公開する' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('公開日時を入力してください');

    const at = within(dialog).getByLabelText('公開日時（日本時間）');
    await user.type(at, '2030-01-02T10:00');
    const sent = answerProjectPost<PublishInput>(
      '/publish',
      adminProject({ state: 'scheduled', publishAt: '2030-01-02T10:00:00+09:00', returns: [adminReturn()] }),
    );
    await user.click(within(dialog).getByRole('button', { name: '公開する' }));

    expect(await screen.findByText('2030年1月2日 10:00に公開を予約しました。')).toBeInTheDocument();
    expect(sent).toEqual([{ publishAt: '2030-01-02T10:00:00+09:00' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('公開予約', { selector: '.admin-state' })).toBeInTheDocument();
    expect(screen.getByText('（2030年1月2日 10:00 に公開）')).toBeInTheDocument();
    expect(screen.getByText('（2030年1月2日 10:00 に公開）').parentElement).toHaveFocus();
    // Scheduled: the preview stays, a second publication is not offered, the schedule can be taken back.
    expect(screen.getByRole('link', { name: 'プレビュー' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '公開する' })).not.toBeInTheDocument();

    const taken = answerProjectPost<unknown>('/unschedule', adminProject({ returns: [adminReturn()] }));
    await user.click(screen.getByRole('button', { name: '公開予約を取り消す' }));
    expect(await screen.findByText('公開予約を取り消しました。下書きに戻りました。')).toBeInTheDocument();
    expect(taken).toHaveLength(1);
    expect(await screen.findByRole('button', { name: '公開する' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '公開予約を取り消す' })).not.toBeInTheDocument();
  });

  it('publishes now through the confirmation dialog; the published terms lock', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject({ returns: [adminReturn()] }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    await user.click(await screen.findByRole('button', { name: '公開する' }));
    const dialog = screen.getByRole('dialog', { name: '公開の確認' });
    expect(within(dialog).getByRole('radio', { name: '今すぐ公開' })).toHaveFocus();
    const now = answerProjectPost<PublishInput>('/publish', publishedProject({ returns: [adminReturn()] }));
    await user.click(within(dialog).getByRole('button', { name: '公開する' }));

    expect(await screen.findByText('公開しました。')).toBeInTheDocument();
    expect(now).toEqual([{ publishAt: null }]);
    expect(await screen.findByText('公開中')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '公開ページを見る' })).toHaveAttribute('href', '/projects/kiryu-textile/');
    expect(screen.getByLabelText('目標金額（円）')).toBeDisabled();
  });

  it('keeps the dialog open with every reason the server gives for refusing the publication', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject());
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    await user.click(await screen.findByRole('button', { name: '公開する' }));
    answerProjectPost('/publish', {
      status: 400,
      body: {
        error: 'validation_failed',
        message: 'リターンを1つ以上登録してください。',
        field: 'returns',
        errors: [
          { field: 'returns', message: 'リターンを1つ以上登録してください。' },
          { field: 'acceptsCard', message: '支払い方法を1つ以上選んでください。' },
        ],
      },
    });
    const dialog = screen.getByRole('dialog', { name: '公開の確認' });
    await user.click(within(dialog).getByRole('button', { name: '公開する' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('リターンを1つ以上登録してください。');
    expect(alert).toHaveTextContent('支払い方法を1つ以上選んでください。');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('下書き', { selector: '.admin-state' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '公開する' })).toHaveFocus();
  });
});

describe('the returns of a project', () => {
  it('lists each return with its price, type, stock and state', async () => {
    loginAs({ isAdmin: true });
    serveProject(
      adminProject({
        returns: [
          adminReturn(),
          adminReturn({
            id: 32,
            title: '工房見学ツアー',
            price: 30_000,
            returnType: 1,
            stockLimit: null,
            lotsTaken: 4,
            disabled: true,
            hidden: true,
            backed: true,
            deliveryMonth: null,
          }),
        ],
      }),
    );
    renderApp('/admin/projects/12/');

    const list = await screen.findByRole('list', { name: 'リターン（表示順）' });
    const [first, second] = within(list).getAllByRole('article');
    expect(first).toHaveAccessibleName('お礼のお手紙');
    expect(within(first!).getByText('3,000円')).toBeInTheDocument();
    expect(within(first!).getByText('個人')).toBeInTheDocument();
    expect(within(first!).getByText('12 / 50')).toBeInTheDocument();
    expect(within(first!).getByText('2027年3月')).toBeInTheDocument();
    expect(within(first!).getByRole('button', { name: '上へ' })).toBeDisabled();
    expect(second).toHaveAccessibleName('工房見学ツアー');
    expect(within(second!).getByText('30,000円')).toBeInTheDocument();
    expect(within(second!).getByText('企業')).toBeInTheDocument();
    expect(within(second!).getByText('4 / 無制限')).toBeInTheDocument();
    expect(within(second!).getByText('受付停止')).toBeInTheDocument();
    expect(within(second!).getByText('非表示')).toBeInTheDocument();
    expect(within(second!).getByText('支援あり')).toBeInTheDocument();
    expect(within(second!).getByRole('button', { name: '下へ' })).toBeDisabled();
  });

  it('adds a return from the form', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject());
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    expect(await screen.findByText('リターンはまだありません。')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'リターンを追加' }));
    const form = screen.getByRole('region', { name: 'リターンを追加' });
    expect(within(form).getByRole('heading', { name: 'リターンを追加' })).toHaveFocus();

    await user.type(within(form).getByLabelText('タイトル'), '桐生織のコースター');
    await user.type(within(form).getByLabelText('内容'), 'コースター2枚を郵送でお届けします。');
    await user.type(within(form).getByLabelText('金額（円）'), '5000');
    await user.selectOptions(within(form).getByLabelText('種類'), '団体');
    await user.type(within(form).getByLabelText(/在庫数/), '100');
    await user.click(within(form).getByRole('checkbox', { name: '口数を1に固定' }));
    await user.click(within(form).getByRole('checkbox', { name: '配送先住所が必要' }));
    await user.type(within(form).getByLabelText(/住所欄の見出し/), 'お届け先');
    const added = adminReturn({
      id: 40,
      title: '桐生織のコースター',
      description: 'コースター2枚を郵送でお届けします。',
      price: 5_000,
      returnType: 2,
      stockLimit: 100,
      lotsTaken: 0,
      lotFixed: true,
      deliveryMonth: null,
    });
    const sent = answerProjectPost<ReturnInput>('/returns', adminProject({ returns: [added] }));
    await user.click(within(form).getByRole('button', { name: 'リターンを保存する' }));

    expect(await screen.findByText('リターンを保存しました。')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        title: '桐生織のコースター',
        description: 'コースター2枚を郵送でお届けします。',
        price: 5_000,
        returnType: 2,
        stockLimit: 100,
        lotFixed: true,
        addressRequired: true,
        addressLabel: 'お届け先',
        disabled: false,
        disabledComment: null,
        hidden: false,
        deliveryMonth: null,
        monthly: false,
        course: null,
        onlyFor: null,
      },
    ]);
    expect(screen.queryByRole('region', { name: 'リターンを追加' })).not.toBeInTheDocument();
    const item = await screen.findByRole('article', { name: '桐生織のコースター' });
    expect(within(item).getByText('5,000円')).toBeInTheDocument();
    expect(within(item).getByText('0 / 100')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'リターンを追加' })).toHaveFocus();
  });

  it('adds a monthly return in a course for one address: its stock is unlimited, and the list says so', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject());
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    await user.click(await screen.findByRole('button', { name: 'リターンを追加' }));
    const form = screen.getByRole('region', { name: 'リターンを追加' });
    await user.type(within(form).getByLabelText('タイトル'), '毎月の桐生通信');
    await user.type(within(form).getByLabelText('内容'), '毎月、工房の便りをメールでお届けします。');
    await user.type(within(form).getByLabelText('金額（円）'), '1000');
    await user.type(within(form).getByLabelText(/在庫数/), '10');
    const payment = within(form).getByRole('group', { name: '支払い' });
    await user.click(within(payment).getByRole('radio', { name: '毎月（月額支援）' }));
    const stock = within(form).getByLabelText(/在庫数/);
    expect(stock).toBeDisabled();
    expect(descriptionOf(stock)).toContain('在庫数は設定できません（無制限）');
    await user.type(within(form).getByLabelText(/コース/), 'A');
    await user.type(within(form).getByLabelText(/公開先のメールアドレス/), 'vip@example.jp');
    const added = adminReturn({
      id: 41,
      title: '毎月の桐生通信',
      price: 1_000,
      stockLimit: null,
      lotsTaken: 0,
      monthly: true,
      course: 'A',
      onlyFor: 'vip@example.jp',
    });
    const sent = answerProjectPost<ReturnInput>('/returns', adminProject({ returns: [added] }));
    await user.click(within(form).getByRole('button', { name: 'リターンを保存する' }));

    expect(await screen.findByText('リターンを保存しました。')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ monthly: true, stockLimit: null, course: 'A', onlyFor: 'vip@example.jp' });
    const item = await screen.findByRole('article', { name: '毎月の桐生通信' });
    expect(within(item).getByText('月額')).toBeInTheDocument();
    expect(within(item).getByText('コースA')).toBeInTheDocument();
    expect(within(item).getByText('vip@example.jp')).toBeInTheDocument();
  });

  it('shows the server’s message by the address a return is offered to', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject({ returns: [adminReturn()] }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const item = await screen.findByRole('article', { name: 'お礼のお手紙' });
    await user.click(within(item).getByRole('button', { name: '編集' }));
    const form = screen.getByRole('region', { name: /リターンを編集/ });
    const address = within(form).getByLabelText(/公開先のメールアドレス/);
    await user.type(address, 'vip');
    const message = '公開先のメールアドレスを正しい形式（254文字以内）で入力してください。';
    answerProjectPost('/returns/:returnId', {
      status: 400,
      body: { error: 'validation_failed', message, field: 'onlyFor' },
    });
    await user.click(within(form).getByRole('button', { name: 'リターンを保存する' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(message);
    expect(address).toHaveFocus();
  });

  it('shows the server’s message next to the return field it names', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject({ returns: [adminReturn()] }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const item = await screen.findByRole('article', { name: 'お礼のお手紙' });
    await user.click(within(item).getByRole('button', { name: '編集' }));
    const form = screen.getByRole('region', { name: /リターンを編集/ });
    const stock = within(form).getByLabelText(/在庫数/);
    await user.clear(stock);
    await user.type(stock, '5');
    answerProjectPost('/returns/:returnId', {
      status: 400,
      body: { error: 'validation_failed', message: '在庫数は支援済みの数（12）より少なくできません', field: 'stockLimit' },
    });
    await user.click(within(form).getByRole('button', { name: 'リターンを保存する' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent('在庫数は支援済みの数（12）より少なくできません');
    expect(stock).toHaveFocus();
  });

  it('keeps a backed return: price and type locked, delete disabled with the reason', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject({ returns: [adminReturn({ backed: true })] }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const item = await screen.findByRole('article', { name: 'お礼のお手紙' });
    const remove = within(item).getByRole('button', { name: '削除' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription(/支援があるため削除できません。受付停止または非表示にできます。/);

    await user.click(within(item).getByRole('button', { name: '編集' }));
    const form = screen.getByRole('region', { name: /リターンを編集/ });
    const price = within(form).getByLabelText('金額（円）');
    expect(price).toBeDisabled();
    expect(descriptionOf(price)).toContain('支援があるため変更できません');
    expect(within(form).getByLabelText('種類')).toBeDisabled();
    expect(within(form).getByRole('radio', { name: '毎月（月額支援）' })).toBeDisabled();
    expect(within(form).getByLabelText('タイトル')).toBeEnabled();

    // Pausing it is what stays possible.
    await user.click(within(form).getByRole('checkbox', { name: '受付を停止する' }));
    await user.type(within(form).getByLabelText(/停止中の表示文/), '準備が整いしだい再開します');
    const sent = answerProjectPost<ReturnInput>(
      '/returns/:returnId',
      publishedProject({ returns: [adminReturn({ backed: true, disabled: true })] }),
    );
    await user.click(within(form).getByRole('button', { name: 'リターンを保存する' }));
    expect(await screen.findByText('受付停止')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ disabled: true, disabledComment: '準備が整いしだい再開します', price: 3_000 });
  });

  it('asks before deleting, and shows the server’s refusal', async () => {
    loginAs({ isAdmin: true });
    serveProject(adminProject({ returns: [adminReturn()] }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const item = await screen.findByRole('article', { name: 'お礼のお手紙' });
    await user.click(within(item).getByRole('button', { name: '削除' }));
    const dialog = screen.getByRole('dialog', { name: 'リターンの削除' });
    expect(dialog).toHaveTextContent('「お礼のお手紙」を削除します。よろしいですか？');
    const sent = answerProjectPost('/returns/:returnId/delete', {
      status: 400,
      body: {
        error: 'validation_failed',
        message: '支援のあるリターンは削除できません。受付停止または非表示にしてください。',
        field: 'returns',
        errors: [{ field: 'returns', message: '支援のあるリターンは削除できません。受付停止または非表示にしてください。' }],
      },
    });
    await user.click(within(dialog).getByRole('button', { name: '削除する' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      '支援のあるリターンは削除できません。受付停止または非表示にしてください。',
    );
    expect(sent).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'お礼のお手紙' })).toBeInTheDocument();
  });

  it('moves a return down in the order and keeps the focus on it', async () => {
    loginAs({ isAdmin: true });
    const first = adminReturn();
    const second = adminReturn({ id: 32, title: '工房見学ツアー', position: 2 });
    serveProject(adminProject({ returns: [first, second] }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const item = await screen.findByRole('article', { name: 'お礼のお手紙' });
    const sent = answerProjectPost<ReturnOrderInput>(
      '/return-order',
      adminProject({ returns: [{ ...second, position: 1 }, { ...first, position: 2 }] }),
    );
    await user.click(within(item).getByRole('button', { name: '下へ' }));

    await waitFor(() =>
      expect(screen.getAllByRole('article').map((a) => a.querySelector('h3')?.textContent)).toEqual([
        '工房見学ツアー',
        'お礼のお手紙',
      ]),
    );
    expect(sent).toEqual([{ returnIds: [32, 31] }]);
    // At the bottom now, 下へ is off: 上へ of the same return has the focus.
    await waitFor(() =>
      expect(within(screen.getByRole('article', { name: 'お礼のお手紙' })).getByRole('button', { name: '上へ' })).toHaveFocus(),
    );
  });
});
