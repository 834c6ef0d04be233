import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SESSION_MESSAGES } from '@/app/session/messages';
import { renderApp } from '@/testing/render';
import { answerPost } from '@/testing/requests';
import { loginAs, makeUser, serveUser } from '@/testing/session';
import { EXTRA_AMOUNT_MESSAGES } from '../extraAmount';
import { PAYMENT_MESSAGES } from '../messages';
import {
  PROJECT,
  RETURN,
  paymentProject,
  paymentReturn,
  readRecord,
  serveProject,
  storeRecord,
} from '../testing/fixtures';

const INFO = `/payment/info/${PROJECT}/${RETURN}/`;

const renderInfo = async (supportType: 'guest' | 'login' = 'guest') => {
  storeRecord({ supportType, loginRef: INFO });
  const user = userEvent.setup();
  const view = renderApp(INFO);
  await screen.findByRole('button', { name: '次へ' });
  return { user, ...view };
};

const agree = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('checkbox', { name: '利用規約に同意する' }));
  await user.click(screen.getByRole('checkbox', { name: '反社会的勢力ではないことを確認する' }));
};

describe('payment step 1', () => {
  it('shows Not Found when no support type was stored', async () => {
    serveProject();
    renderApp(INFO);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('shows Not Found for a return the project does not have', async () => {
    serveProject();
    storeRecord({ supportType: 'guest' });
    renderApp(`/payment/info/${PROJECT}/no-such-return/`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('registers a guest, stores the support record without card data and goes to step 2', async () => {
    serveProject();
    const registered = answerPost('/user/register', { userFlag: 200, exists: false });
    const { user, router } = await renderInfo();

    expect(screen.getByText('前橋の夏祭りを復活させたい')).toBeInTheDocument();
    expect(screen.getByText('お礼のお手紙コース')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'お申し込みの手順' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '戻る' })).toHaveAttribute('href', `/projects/${PROJECT}/`);
    await user.selectOptions(screen.getByRole('combobox', { name: '口数' }), '2');
    await user.type(screen.getByRole('textbox', { name: 'メールアドレス' }), ' guest@example.jp ');
    await user.type(screen.getByRole('textbox', { name: '表示名' }), '上州太郎');
    await user.click(screen.getByRole('checkbox', { name: /名前を公開しない/ }));
    await user.type(screen.getByRole('textbox', { name: /応援コメント/ }), '応援しています');
    await agree(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));

    await waitFor(() => expect(router.location.pathname).toBe(`/payment/method/${PROJECT}/${RETURN}/`));
    expect(registered).toEqual([{ email: 'guest@example.jp', isGuest: true }]);
    expect(readRecord()).toEqual({
      supportType: 'guest',
      loginRef: INFO,
      returnKey: `${PROJECT}/${RETURN}`,
      lot: 2,
      displayname: '上州太郎',
      anonymous: true,
      comment: '応援しています',
      agreeTerms: true,
      notAntisocial: true,
      guestEmail: 'guest@example.jp',
    });
    expect(await screen.findByRole('radio', { name: /クレジットカード/ })).toBeInTheDocument();
  });

  it('tells a guest already registered, and goes on', async () => {
    serveProject();
    answerPost('/user/register', { userFlag: 200, exists: true });
    const { user } = await renderInfo();
    await user.type(screen.getByRole('textbox', { name: 'メールアドレス' }), 'guest@example.jp');
    await user.type(screen.getByRole('textbox', { name: '表示名' }), '上州太郎');
    await agree(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));

    expect(await screen.findByText(PAYMENT_MESSAGES.guestExists)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /銀行振込/ })).toBeInTheDocument();
  });

  it.each([
    [
      409,
      'member_exists',
      'このメールアドレスは会員登録済みです。ログインしてからご支援ください。',
      'このメールアドレスは会員登録済みです。ログインしてからご支援ください。',
    ],
    [500, 'internal', '内部エラー', PAYMENT_MESSAGES.guestFailed],
    [429, 'rate_limited', 'しばらくしてからお試しください。', PAYMENT_MESSAGES.guestFailed],
  ])('answers a guest registration refused with %i %s by its message, and stays', async (status, error, message, shown) => {
    const body = { error, message };
    serveProject();
    answerPost('/user/register', { status, body });
    const { user, router } = await renderInfo();
    await user.type(screen.getByRole('textbox', { name: 'メールアドレス' }), 'taro@example.jp');
    await user.type(screen.getByRole('textbox', { name: '表示名' }), '上州太郎');
    await agree(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
    expect(router.location.pathname).toBe(INFO);
    expect(readRecord().lot).toBeUndefined();
  });

  it('shows the e-mail, display name and agreement messages, and keeps 次へ disabled until all hold', async () => {
    serveProject();
    const { user } = await renderInfo();
    const next = screen.getByRole('button', { name: '次へ' });
    expect(next).toBeDisabled();

    const email = screen.getByRole('textbox', { name: 'メールアドレス' });
    await user.click(email);
    await user.tab();
    expect(await screen.findByText('メールアドレスを入力してください')).toBeInTheDocument();
    await user.type(email, 'taro@');
    await user.tab();
    expect(await screen.findByText('正しいメールアドレスの形式で入力してください')).toBeInTheDocument();

    await user.click(screen.getByRole('textbox', { name: '表示名' }));
    await user.tab();
    expect(await screen.findByText('表示名を入力してください。')).toBeInTheDocument();

    const terms = screen.getByRole('checkbox', { name: '利用規約に同意する' });
    const antisocial = screen.getByRole('checkbox', { name: '反社会的勢力ではないことを確認する' });
    await user.click(terms);
    await user.click(terms);
    expect(await screen.findByText('利用規約に同意してください。')).toBeInTheDocument();
    await user.click(antisocial);
    await user.click(antisocial);
    expect(await screen.findByText('反社会的勢力に該当しないことを確認してください。')).toBeInTheDocument();
    expect(next).toBeDisabled();
  });

  it.each([
    [1, '企業名', '企業名を入力してください。'],
    [2, '団体名', '団体名を入力してください。'],
  ])('asks a type %i return for the %s and a valid site URL', async (type, label, message) => {
    serveProject(paymentProject({ returns: [paymentReturn({ type })] }));
    const { user } = await renderInfo();

    await user.click(screen.getByRole('textbox', { name: label }));
    await user.tab();
    expect(await screen.findByText(message)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /サイトURL/ }), 'example');
    await user.tab();
    expect(await screen.findByText('正しいURLの形式で入力してください。')).toBeInTheDocument();
    // Guests upload no logo.
    expect(screen.queryByRole('group', { name: 'ロゴ' })).not.toBeInTheDocument();
  });

  it('takes an optional extra amount in whole yen, refuses a fraction with the server message and stores it', async () => {
    serveProject();
    answerPost('/user/register', { userFlag: 200, exists: false });
    const { user, router } = await renderInfo();
    const extra = screen.getByRole('textbox', { name: /上乗せ支援額/ });
    expect(extra).toHaveAccessibleDescription(/1,000,000円まで/);

    await user.type(extra, '12.5');
    await user.tab();
    expect(await screen.findByText(EXTRA_AMOUNT_MESSAGES.range)).toBeInTheDocument();
    await user.clear(extra);
    await user.type(extra, '１，５００');
    expect(screen.queryByText(EXTRA_AMOUNT_MESSAGES.range)).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'メールアドレス' }), 'guest@example.jp');
    await user.type(screen.getByRole('textbox', { name: '表示名' }), '上州太郎');
    await agree(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));

    await waitFor(() => expect(router.location.pathname).toBe(`/payment/method/${PROJECT}/${RETURN}/`));
    expect(readRecord().extraAmount).toBe(1500);
  });

  it('offers no extra amount on a monthly return and says why', async () => {
    serveProject(paymentProject({ returns: [paymentReturn({ interval: 'month', lotDisable: true })] }));
    await renderInfo();
    expect(screen.queryByRole('textbox', { name: /上乗せ支援額/ })).toBeNull();
    expect(screen.getByText(EXTRA_AMOUNT_MESSAGES.monthly)).toBeInTheDocument();
  });

  it('disables the lot for a return that cannot choose it', async () => {
    serveProject(paymentProject({ returns: [paymentReturn({ lotDisable: true })] }));
    await renderInfo();
    const lot = screen.getByRole('combobox', { name: '口数' });
    expect(lot).toBeDisabled();
    expect(lot).toHaveValue('1');
    expect(lot).toHaveAccessibleDescription('このリターンは口数を選択できません。');
  });

  it("asks the project's additional question with its own alert, or '{label}を入力してください'", async () => {
    serveProject(
      paymentProject({
        additionalData: { label: 'Tシャツのサイズ', text: 'S/M/Lからお選びください。', description: 'M', alert: 'サイズをご記入ください', formLine: 1 },
      }),
    );
    const { user, unmount } = await renderInfo();
    expect(screen.getByText('S/M/Lからお選びください。')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Tシャツのサイズ' }));
    await user.tab();
    expect(await screen.findByText('サイズをご記入ください')).toBeInTheDocument();
    unmount();

    serveProject(
      paymentProject({
        additionalData: { label: 'ご所属', text: null, description: null, alert: null, formLine: 3 },
      }),
    );
    const second = await renderInfo();
    await second.user.click(screen.getByRole('textbox', { name: 'ご所属' }));
    await second.user.tab();
    expect(await screen.findByText('ご所属を入力してください')).toBeInTheDocument();
  });

  it("asks for the delivery address with '{label}を入力してください' and the address form's own rules", async () => {
    serveProject(paymentProject({ returns: [paymentReturn({ addressRequired: true, addressLabel: 'お届け先' })] }));
    const { user } = await renderInfo();
    const address = screen.getByRole('region', { name: 'お届け先' });
    await user.click(within(address).getByRole('textbox', { name: 'お名前' }));
    await user.tab();
    expect(await within(address).findByText('お届け先を入力してください')).toBeInTheDocument();
    expect(within(address).getByText('お名前を入力してください。')).toBeInTheDocument();
    await user.type(within(address).getByRole('textbox', { name: 'お名前' }), '上州太郎');
    await user.type(within(address).getByRole('textbox', { name: '電話番号' }), '027');
    await user.tab();
    expect(await within(address).findByText(/電話番号は半角数字10〜11桁/)).toBeInTheDocument();
    expect(within(address).queryByText('お届け先を入力してください')).not.toBeInTheDocument();
  });

  it('sends a login-type supporter without a session to the login page with the alert', async () => {
    serveProject();
    storeRecord({ supportType: 'login', loginRef: INFO });
    const { router } = renderApp(INFO);

    await waitFor(() => expect(router.location.pathname).toBe('/login/'));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(SESSION_MESSAGES.loginRequired);
    expect(readRecord().loginRef).toBe(INFO);
  });

  it("prefills a member's name, offers their logos and saved address, and stores the choice", async () => {
    loginAs();
    serveUser(
      makeUser({
        corporatename: '上州商事',
        corporateurl: 'https://joshu.example.jp/',
        urls: { icon: [], logo: [{ id: 12, url: '/media/logo12.png' }, { id: 9, url: '/media/logo9.png' }] },
        addresses: {
          main: [
            { id: 5, name: '上州太郎', telNumber: '0272000000', zip: '3710023', pref: '群馬県', city: '前橋市', address: '本町1-1', building: null },
          ],
        },
      }),
    );
    serveProject(paymentProject({ returns: [paymentReturn({ type: 1, addressRequired: true, addressLabel: 'お届け先' })] }));
    const { user, router } = await renderInfo('login');

    expect(screen.getByText('メールアドレス：taro@example.jp')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: '企業名' })).toHaveValue('上州商事');
    expect(screen.getByRole('radio', { name: '登録済みのロゴ1' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: '登録済みのロゴ2' }));
    expect(screen.getByRole('radio', { name: /登録済みの住所/ })).toBeChecked();
    await agree(user);
    await user.click(screen.getByRole('button', { name: '次へ' }));

    await waitFor(() => expect(router.location.pathname).toBe(`/payment/method/${PROJECT}/${RETURN}/`));
    expect(readRecord()).toMatchObject({
      supportType: 'login',
      user_id: 7,
      lot: 1,
      corporatename: '上州商事',
      corporateurl: 'https://joshu.example.jp/',
      logo: { url_id: 9, s3: '/media/logo9.png' },
      addressId: 5,
    });
    expect(readRecord().address).toBeUndefined();
    expect(readRecord().guestEmail).toBeUndefined();
  });
});
