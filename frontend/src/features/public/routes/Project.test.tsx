import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { serveUser } from '@/testing/session';
import { SUPPORT_STORAGE_KEY } from '../support';
import { comment, detail, emptySponsors, logInAs, mockProjectPage, news, ret } from '../testing/fixtures';

const SITE = 'ぐんまクラウドファンディング';
const PATH = '/projects/maebashi-fes/';

const returnsList = async () => {
  const section = await screen.findByRole('region', { name: /リターン一覧/ });
  return section;
};

describe('Project page', () => {
  it('shows the project hero with its amounts, ring with two decimals and days left', async () => {
    mockProjectPage();
    renderApp(PATH);

    expect(await screen.findByRole('heading', { level: 1, name: '前橋の夏祭りを復活させたい' })).toBeInTheDocument();
    const hero = screen.getByRole('region', { name: '前橋の夏祭りを復活させたい' });
    expect(within(hero).getByText('123,000円')).toBeInTheDocument();
    expect(within(hero).getByText('1,000,000円')).toBeInTheDocument();
    expect(within(hero).getByText('42人')).toBeInTheDocument();
    expect(within(hero).getByText('残り36日')).toBeInTheDocument();
    expect(within(hero).getByRole('img', { name: '達成率 12.34%' })).toBeInTheDocument();
    const image = within(hero).getByRole('img', { name: '前橋の夏祭りを復活させたい' });
    expect(image).toHaveAttribute('src', '/media/demo/p1-main.svg');
    expect(image).toHaveAttribute('width', '1200');
  });

  it('titles the document with the project title, as an article', async () => {
    mockProjectPage();
    renderApp(PATH);

    await waitFor(() => expect(document.title).toBe(`前橋の夏祭りを復活させたい | ${SITE}`));
    expect(document.querySelector('meta[property="og:type"]')).toHaveAttribute('content', 'article');
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute('content', '商店街のみんなで夏祭りを開きます。');
  });

  it('shows the not-found view for an unknown slug', async () => {
    mockProjectPage();
    renderApp('/projects/no-such-project/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`お探しのページが見つかりませんでした | ${SITE}`));
  });

  it('renders the sanitised body, then news, comments and sponsors on the intro tab', async () => {
    mockProjectPage();
    renderApp(PATH);

    const tab = await screen.findByRole('tab', { name: 'プロジェクト紹介' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel', { name: 'プロジェクト紹介' });
    expect(within(panel).getByText('夏祭り', { selector: 'strong' })).toBeInTheDocument();
    expect(await within(panel).findByText('準備が始まりました')).toBeInTheDocument();
    expect(await within(panel).findByText('応援しています！')).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: '支援者の皆さま' })).toBeInTheDocument();
    expect(document.getElementById('mainContents_wrapper')).toContainElement(panel);
  });

  it('switches tabs by click and by arrow keys', async () => {
    mockProjectPage({ news: [news(), news({ id: 2, title: 'ポスターができました', description: null, updated_at: '2026-11-02T08:00:00+09:00' })] });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByRole('tab', { name: /^活動報告/ }));
    const newsPanel = screen.getByRole('tabpanel', { name: /^活動報告/ });
    expect(await within(newsPanel).findByText('2026.11.20')).toBeInTheDocument();
    expect(within(newsPanel).getByText('ポスターができました')).toBeInTheDocument();
    expect(within(newsPanel).getByText('2026.11.02')).toBeInTheDocument();
    expect(screen.queryByRole('tabpanel', { name: 'プロジェクト紹介' })).not.toBeInTheDocument();

    await user.keyboard('{ArrowRight}');
    const comments = screen.getByRole('tab', { name: /^応援コメント/ });
    expect(comments).toHaveAttribute('aria-selected', 'true');
    expect(comments).toHaveFocus();
    expect(await screen.findByRole('tabpanel', { name: /^応援コメント/ })).toHaveTextContent('応援しています！');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'プロジェクト紹介' })).toHaveAttribute('aria-selected', 'true');
  });

  it('lists the returns with price, tax label and what remains', async () => {
    mockProjectPage({
      project: detail({
        returns: [
          ret(),
          ret({
            id: 4,
            slug: 'free',
            title: '応援だけコース',
            price: 1000,
            tax: 100,
            total: 1100,
            taxLabel: '税別',
            limit: null,
            remaining: null,
          }),
        ],
      }),
    });
    renderApp(PATH);

    const section = await returnsList();
    expect(section).toHaveAttribute('id', 'returns');
    const items = within(section).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('3,300円（税込）')).toBeInTheDocument();
    expect(within(items[0]!).getByText('残り12 / 限定50')).toBeInTheDocument();
    // Listed before tax: the tax-included figure first, the base price beside it.
    expect(within(items[1]!).getByText('1,100円（税込）')).toBeInTheDocument();
    expect(within(items[1]!).getByText('税抜 1,000円')).toBeInTheDocument();
    expect(within(items[0]!).queryByText(/税抜/)).toBeNull();
    expect(within(items[1]!).getByText('数量制限なし')).toBeInTheDocument();
    expect(within(items[0]!).getByRole('button', { name: /このリターンで支援する/ })).toBeEnabled();
  });

  it('renders the sanitised markup of return and news descriptions, not their tags', async () => {
    mockProjectPage({
      project: detail({ returns: [ret({ description: '<p>活動報告を<strong>毎月</strong>お届けします。</p>' })] }),
      news: [news({ description: '<p>櫓の<a href="https://example.jp/">写真</a>を公開しました。</p>' })],
    });
    renderApp(PATH);

    const section = await returnsList();
    const emphasis = within(section).getByText('毎月');
    expect(emphasis.tagName).toBe('STRONG');
    expect(section).not.toHaveTextContent('<p>');
    const panel = screen.getByRole('tabpanel', { name: 'プロジェクト紹介' });
    expect(await within(panel).findByRole('link', { name: '写真' })).toHaveAttribute('href', 'https://example.jp/');
    expect(panel).not.toHaveTextContent('<p>');
  });

  it('shows a return without an image without a broken one', async () => {
    mockProjectPage({ project: detail({ returns: [ret(), ret({ id: 4, slug: 'plain', title: '応援だけコース', imageSrc: null })] }) });
    renderApp(PATH);

    const section = await returnsList();
    const [withImage, withoutImage] = within(section).getAllByRole('article');
    expect(within(withImage!).getByRole('img', { name: 'お礼のお手紙コース' })).toHaveAttribute('src', '/media/demo/r3.svg');
    expect(within(withoutImage!).queryByRole('img')).not.toBeInTheDocument();
  });

  it('shows sold-out, disabled and ended returns as not purchasable', async () => {
    mockProjectPage({
      project: detail({
        returns: [
          ret({ id: 10, title: '完売コース', remaining: 0, purchasable: false, blockReason: 'sold_out', blockMessage: '支援上限に達しました' }),
          ret({ id: 11, title: '停止中コース', disabled: true, disabledComment: '準備のため一時停止しています。', purchasable: false, blockReason: 'disabled', blockMessage: '支援上限に達しました' }),
          ret({ id: 12, title: '終了コース', purchasable: false, blockReason: 'ended', blockMessage: '支援上限に達しました' }),
        ],
      }),
    });
    renderApp(PATH);

    const section = await returnsList();
    const soldOut = within(section).getByRole('article', { name: '完売コース' });
    expect(within(soldOut).getByText('支援上限に達しました')).toBeInTheDocument();
    expect(within(soldOut).getByText(/^残り0 \/ 限定/)).toBeInTheDocument();
    expect(within(soldOut).getByRole('button')).toBeDisabled();

    const disabled = within(section).getByRole('article', { name: '停止中コース' });
    expect(within(disabled).getByText('準備のため一時停止しています。')).toBeInTheDocument();
    expect(within(disabled).getByRole('button')).toBeDisabled();

    const ended = within(section).getByRole('article', { name: '終了コース' });
    expect(within(ended).getByRole('button', { name: '募集終了' })).toBeDisabled();
  });

  // Hidden returns (flag 900 and above) and returns restricted to an address are left out by the server
  // (domain::returns, app-server/tests/api/catalog.rs; in the browser, e2e/public.spec.ts): its answer
  // carries neither a flag nor displayValidity, so the page has nothing to filter on and must show
  // exactly what it is sent, in the server's order.
  it('renders every return the server sends, in its order, without filtering', async () => {
    mockProjectPage({
      project: detail({
        returns: [
          ret({ id: 3, slug: 'c', title: '三番目に作ったコース' }),
          ret({ id: 1, slug: 'a', title: '公開コース' }),
          ret({ id: 2, slug: 'b', title: '招待コース' }),
        ],
      }),
    });
    renderApp(PATH);

    const section = await returnsList();
    const names = within(section)
      .getAllByRole('article')
      .map((article) => within(article).getByRole('heading').textContent);
    expect(names).toEqual(['三番目に作ったコース', '公開コース', '招待コース']);
  });

  it('says so when a project has no return', async () => {
    mockProjectPage({ project: detail({ returns: [] }) });
    renderApp(PATH);

    expect(await screen.findByText('現在選択できるリターンはありません。')).toBeInTheDocument();
  });

  it('groups corporate sponsors by logo size, then lists personal sponsors', async () => {
    mockProjectPage({
      sponsors: {
        ...emptySponsors(),
        corporate: {
          size3: [{ name: '赤城食品株式会社', link: 'https://akagi.example.jp/', img: '/media/logo-akagi.svg', tier: 'large' }],
          size2: [{ name: '榛名運輸', link: null, img: null, tier: 'medium' }],
          size1: [{ name: '妙義商店', link: null, img: '/media/logo-myogi.svg', tier: 'small' }],
        },
        personal: [{ name: '山田 太郎' }, { name: '匿名' }],
      },
    });
    renderApp(PATH);

    const large = await screen.findByRole('list', { name: '企業・団体（大）' });
    const logo = within(large).getByRole('img', { name: '赤城食品株式会社' });
    expect(logo.closest('a')).toHaveAttribute('href', 'https://akagi.example.jp/');
    expect(logo).toHaveAttribute('width', '200');
    expect(within(screen.getByRole('list', { name: '企業・団体（中）' })).getByText('榛名運輸')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: '企業・団体（小）' })).getByRole('img', { name: '妙義商店' })).toHaveAttribute('width', '110');
    const people = screen.getByRole('list', { name: '個人の支援者' });
    expect(within(people).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['山田 太郎', '匿名']);

    // Order on the page: largest logos first.
    const groups = screen.getAllByRole('list', { name: /企業・団体/ }).map((list) => list.getAttribute('aria-label'));
    expect(groups).toEqual(['企業・団体（大）', '企業・団体（中）', '企業・団体（小）']);
  });

  it('shows the manual sponsor list (courses A, B, C and supporters) when the project uses one', async () => {
    mockProjectPage({
      sponsors: {
        manual: true,
        corporate: { size3: [], size2: [], size1: [] },
        personal: [],
        courses: {
          A: [{ name: '上州銀行', src: '/media/a.svg', link: 'https://bank.example.jp/' }],
          B: [{ name: '利根川建設', src: null, link: null }],
          C: [{ name: '草津温泉旅館組合', src: '/media/c.svg', link: null }],
          supporters: ['佐藤 花子', '鈴木 一郎'],
        },
      },
    });
    renderApp(PATH);

    const a = await screen.findByRole('list', { name: 'Aコース協賛' });
    expect(within(a).getByRole('img', { name: '上州銀行' }).closest('a')).toHaveAttribute('href', 'https://bank.example.jp/');
    expect(within(screen.getByRole('list', { name: 'Bコース協賛' })).getByText('利根川建設')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Cコース協賛' })).getByRole('img', { name: '草津温泉旅館組合' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'サポーター' })).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('list', { name: '個人の支援者' })).not.toBeInTheDocument();
  });

  it('shows an optional honour image with its link', async () => {
    mockProjectPage({ project: detail({ honorImgUrl: '/media/honor.svg', ImgUrlLink: 'https://award.example.jp/' }) });
    renderApp(PATH);

    const honor = await screen.findByRole('img', { name: '表彰・認定の詳細（外部サイト）' });
    expect(honor.closest('a')).toHaveAttribute('href', 'https://award.example.jp/');
  });

  it('uses the slider when the project has several images', async () => {
    mockProjectPage({ project: detail({ slider: [{ src: '/a.svg', alt: '櫓' }, { src: '/b.svg', alt: '屋台' }] }) });
    renderApp(PATH);

    expect(await screen.findByRole('button', { name: '次の画像' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /画像\d+を表示/ })).toHaveLength(2);
  });

  it('scrolls to the hash target 200 ms after the project arrives', async () => {
    mockProjectPage();
    const scrollIntoView = Element.prototype.scrollIntoView as unknown as { mock: { contexts: unknown[] } };
    renderApp(`${PATH}#mainContents_wrapper`);

    await screen.findByRole('heading', { level: 1, name: '前橋の夏祭りを復活させたい' });
    const target = document.getElementById('mainContents_wrapper');
    await waitFor(() => expect(scrollIntoView.mock.contexts).toContain(target));
  });
});

describe('Footer sponsors', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const tiers = {
    LL: [{ name: '群馬中央銀行', link: 'https://chuo.example.jp/', img: '/media/ll.svg' }],
    L: [{ name: '高崎製作所', link: null, img: null }],
    M: [],
    S: [{ name: '伊香保まんじゅう本舗', link: null, img: null }],
  };

  it('shows the sponsor blocks by tier, asking with the project slug', async () => {
    const slugs: Array<string | null> = [];
    mockProjectPage();
    server.use(
      http.get(apiUrl('/sponsors/get/footer'), ({ request }) => {
        slugs.push(new URL(request.url).searchParams.get('slug'));
        return HttpResponse.json({ hidden: false, tiers });
      }),
    );
    renderApp(PATH);

    const footer = await screen.findByRole('contentinfo');
    expect(await within(footer).findByRole('list', { name: '特別協賛' })).toBeInTheDocument();
    // The footer strip writes the name under each logo.
    const top = within(footer).getByRole('list', { name: '特別協賛' });
    expect(within(top).getByText('群馬中央銀行')).toBeInTheDocument();
    expect(top.querySelector('img')).toHaveAttribute('width', '240');
    expect(within(footer).getByRole('list', { name: '協賛（大）' })).toHaveTextContent('高崎製作所');
    expect(within(footer).queryByRole('list', { name: '協賛（中）' })).not.toBeInTheDocument();
    expect(within(footer).getByRole('list', { name: '協賛' })).toHaveTextContent('伊香保まんじゅう本舗');
    expect(slugs).toContain('maebashi-fes');
  });

  it('hides them when the API says hidden', async () => {
    mockProjectPage();
    server.use(
      http.get(apiUrl('/sponsors/get/footer'), () =>
        HttpResponse.json({ hidden: true, tiers: { LL: [], L: [], M: [], S: [] } }),
      ),
    );
    renderApp(PATH);

    await screen.findByRole('heading', { level: 1, name: '前橋の夏祭りを復活させたい' });
    expect(screen.queryByRole('heading', { name: '応援企業・団体' })).not.toBeInTheDocument();
  });

  it('are asked for only once the reader nears the footer', async () => {
    // A browser's observer: nothing intersects until the test scrolls.
    const observers: Array<{ callback: IntersectionObserverCallback; targets: Element[] }> = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        private readonly entry: { callback: IntersectionObserverCallback; targets: Element[] };
        constructor(callback: IntersectionObserverCallback) {
          this.entry = { callback, targets: [] };
          observers.push(this.entry);
        }
        observe(target: Element) {
          this.entry.targets.push(target);
        }
        disconnect() {}
        unobserve() {}
        takeRecords() {
          return [];
        }
      },
    );
    let asked = 0;
    mockProjectPage();
    server.use(
      http.get(apiUrl('/sponsors/get/footer'), () => {
        asked += 1;
        return HttpResponse.json({ hidden: false, tiers });
      }),
    );
    renderApp(PATH);
    await screen.findByRole('heading', { level: 1, name: '前橋の夏祭りを復活させたい' });
    expect(asked).toBe(0);

    const footer = screen.getByRole('contentinfo');
    const watching = observers.filter((o) => o.targets.includes(footer));
    expect(watching).not.toHaveLength(0);
    act(() => {
      for (const o of watching) {
        o.callback([{ isIntersecting: true, target: footer } as unknown as IntersectionObserverEntry], {} as IntersectionObserver);
      }
    });
    expect(await within(footer).findByRole('list', { name: '特別協賛' })).toBeInTheDocument();
    expect(asked).toBe(1);
  });

  it('are not even asked for on payment and admin routes', async () => {
    let asked = 0;
    server.use(
      http.get(apiUrl('/sponsors/get/footer'), () => {
        asked += 1;
        return HttpResponse.json({ hidden: false, tiers });
      }),
    );
    window.localStorage.setItem('fk', JSON.stringify({ supportType: 'guest' }));
    server.use(
      http.get(apiUrl('/project/get/detail'), () =>
        HttpResponse.json({ project: detail({ slug: 'fes', returns: [ret({ slug: 'gold' })] }) }),
      ),
    );
    renderApp('/payment/info/fes/gold/');
    await screen.findByRole('heading', { level: 1, name: 'ご支援内容の入力' });
    expect(screen.queryByRole('heading', { name: '応援企業・団体' })).not.toBeInTheDocument();
    expect(asked).toBe(0);
  });
});

describe('Comments', () => {
  const others = comment({ id: 6, user_id: 8, comment: '楽しみです', userDetail: { id: 8, displayname: '佐藤', urls: { icon: [{ url: '/media/icon8.png' }] } }, salesDetail: { displayname: { displayname: null } } });

  const openComments = async () => {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /^応援コメント/ }));
    const panel = screen.getByRole('tabpanel', { name: /^応援コメント/ });
    await within(panel).findByText('応援しています！');
    return { user, panel };
  };

  it('shows icon (or our default icon), name and date', async () => {
    mockProjectPage({ comments: [comment(), others] });
    renderApp(PATH);

    const { panel } = await openComments();
    expect(within(panel).getByRole('img', { name: 'アイコン未設定' })).toBeInTheDocument();
    expect(within(panel).getByRole('img', { name: '佐藤のアイコン' })).toHaveAttribute('src', '/media/icon8.png');
    expect(within(panel).getByText('山田 太郎')).toBeInTheDocument();
    expect(within(panel).getAllByText('2026.11.21')).toHaveLength(2);
  });

  it('offers the edit button only on the logged-in author’s comments', async () => {
    logInAs(7);
    mockProjectPage({ comments: [comment(), others] });
    renderApp(PATH);

    const { panel } = await openComments();
    expect(await within(panel).findAllByRole('button', { name: '編集する' })).toHaveLength(1);
    const mine = within(panel).getByText('応援しています！').closest('li')!;
    expect(within(mine).getByRole('button', { name: '編集する' })).toBeInTheDocument();
    const theirs = within(panel).getByText('楽しみです').closest('li')!;
    expect(within(theirs).queryByRole('button', { name: '編集する' })).not.toBeInTheDocument();
  });

  it('offers a visitor no edit control at all (only authors edit, issue #13)', async () => {
    mockProjectPage({ comments: [comment()] });
    renderApp(PATH);

    const { panel } = await openComments();
    expect(within(panel).getByText('応援しています！')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: '編集する' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: '自分のコメントを編集する' })).not.toBeInTheDocument();
  });

  it('saves an edit and reloads the list', async () => {
    logInAs(7);
    let current = [comment()];
    const bodies: unknown[] = [];
    mockProjectPage();
    server.use(
      http.get(apiUrl('/comment/get/list'), () => HttpResponse.json({ comments: current })),
      http.post(apiUrl('/comment/set/update'), async ({ request }) => {
        bodies.push(await request.json());
        current = [comment({ comment: '当日も行きます！' })];
        return HttpResponse.json({ updated: true });
      }),
    );
    renderApp(PATH);

    const { user, panel } = await openComments();
    await user.click(await within(panel).findByRole('button', { name: '編集する' }));
    const textarea = within(panel).getByRole('textbox', { name: 'コメント' });
    expect(textarea).toHaveValue('応援しています！');
    await user.clear(textarea);
    await user.type(textarea, '当日も行きます！');
    await user.click(within(panel).getByRole('button', { name: '登録する' }));

    expect(await within(panel).findByText('当日も行きます！')).toBeInTheDocument();
    expect(within(panel).queryByRole('textbox')).not.toBeInTheDocument();
    expect(bodies).toEqual([{ id: 5, comment: '当日も行きます！' }]);
  });

  it('shows the server’s message when the edit is refused', async () => {
    logInAs(7);
    mockProjectPage();
    server.use(
      http.post(apiUrl('/comment/set/update'), () =>
        HttpResponse.json({ error: 'forbidden', message: 'このコメントは編集できません。' }, { status: 403 }),
      ),
    );
    renderApp(PATH);

    const { user, panel } = await openComments();
    await user.click(await within(panel).findByRole('button', { name: '編集する' }));
    await user.click(within(panel).getByRole('button', { name: '登録する' }));

    expect(await within(panel).findByRole('alert')).toHaveTextContent('このコメントは編集できません。');
    expect(within(panel).getByRole('textbox', { name: 'コメント' })).toBeInTheDocument();
  });

  it('does not send an empty comment', async () => {
    logInAs(7);
    mockProjectPage();
    renderApp(PATH);

    const { user, panel } = await openComments();
    await user.click(await within(panel).findByRole('button', { name: '編集する' }));
    await user.clear(within(panel).getByRole('textbox', { name: 'コメント' }));
    await user.click(within(panel).getByRole('button', { name: '登録する' }));

    expect(await within(panel).findByRole('alert')).toHaveTextContent('コメントを入力してください。');
  });
});

describe('Support start', () => {
  const bank = { bankAccount: '群馬銀行', branch: '本店', kinds: '普通', number: '1234567', nominee: 'グンマクラウドファンディング' };

  const openModal = async (project = detail()) => {
    mockProjectPage({ project });
    const user = userEvent.setup();
    const rendered = renderApp(PATH);
    const section = await returnsList();
    await user.click(within(section).getByRole('button', { name: /このリターンで支援する/ }));
    return { user, ...rendered, dialog: screen.getByRole('dialog', { name: '支援方法を選択してください' }) };
  };

  const stored = () => JSON.parse(window.localStorage.getItem(SUPPORT_STORAGE_KEY) ?? 'null') as unknown;

  it.each([
    ['ログインして支援する', 'login', '/login/'],
    ['新規会員登録して支援する', 'login', '/signup/'],
    ['ゲストとして支援する', 'guest', '/payment/info/maebashi-fes/course-a/'],
  ])('%s stores the payment page and support type, then navigates', async (label, supportType, target) => {
    const { user, dialog, router } = await openModal();

    await user.click(within(dialog).getByRole('button', { name: label }));

    expect(stored()).toEqual({ loginRef: '/payment/info/maebashi-fes/course-a/', supportType });
    await waitFor(() => expect(router.location.pathname).toBe(target));
  });

  it('offers the anonymous bank details only when the project has them', async () => {
    const { dialog } = await openModal();
    expect(within(dialog).queryByRole('button', { name: '匿名で銀行振込の情報を見る' })).not.toBeInTheDocument();
  });

  it('shows the anonymous bank details on request', async () => {
    const { user, dialog } = await openModal(detail({ hasAnonymousBank: true, anonymousBank: bank }));

    await user.click(within(dialog).getByRole('button', { name: '匿名で銀行振込の情報を見る' }));

    expect(within(dialog).getByText('群馬銀行')).toBeInTheDocument();
    expect(within(dialog).getByText('1234567')).toBeInTheDocument();
    expect(stored()).toBeNull();
  });

  it('closes with the close button and with Escape, keeping focus inside meanwhile', async () => {
    const { user, dialog } = await openModal();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const section = await returnsList();
    await user.click(within(section).getByRole('button', { name: /このリターンで支援する/ }));
    await user.click(screen.getByRole('button', { name: '閉じる' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(stored()).toBeNull();
  });

  it('sends a logged-in member straight to the payment page', async () => {
    logInAs(7);
    mockProjectPage();
    serveUser();
    const user = userEvent.setup();
    const { router } = renderApp(PATH);
    const section = await returnsList();
    // The session is known once the author's own comment offers its edit button.
    await screen.findByRole('button', { name: '編集する' });

    await user.click(within(section).getByRole('button', { name: /このリターンで支援する/ }));

    await waitFor(() => expect(router.location.pathname).toBe('/payment/info/maebashi-fes/course-a/'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The payment flow knows how the member supports.
    expect(stored()).toEqual({ loginRef: '/payment/info/maebashi-fes/course-a/', supportType: 'login' });
  });
});
