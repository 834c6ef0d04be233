import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { RING_CIRCUMFERENCE, ringOffset } from '../components/ProgressRing';
import { card, mockHome } from '../testing/fixtures';

const projects = [
  card({ id: 2, slug: 'takasaki-daruma', title: '高崎だるまの工房を守る', daysLeft: 10 }),
  card({ id: 1, slug: 'maebashi-fes', title: '前橋の夏祭りを復活させたい', daysLeft: 36 }),
  card({
    id: 3,
    slug: 'kiryu-orimono',
    title: '桐生織の新作発表会',
    isOpen: false,
    daysLeft: 0,
    sum: { amount: 2_500_000, lot: 120 },
    progress: { ring: 125.25, card: 125.3, capped: 100 },
  }),
];

describe('Home', () => {
  it('shows the total backers and the total raised in ja-JP format', async () => {
    mockHome(projects, { amount: 1_234_000, lot: 56 });
    renderApp('/');

    expect(await screen.findByText('1,234,000円')).toBeInTheDocument();
    expect(screen.getByText('56人')).toBeInTheDocument();
  });

  it('lists the projects in the order the API gives them', async () => {
    mockHome(projects);
    renderApp('/');

    const list = await screen.findByRole('list', { name: 'プロジェクト' });
    const titles = within(list).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(titles).toEqual(['高崎だるまの工房を守る', '前橋の夏祭りを復活させたい', '桐生織の新作発表会']);
  });

  it('shows each card with its links, amounts, days left and ring', async () => {
    mockHome(projects);
    renderApp('/');

    const article = (await screen.findByRole('article', { name: '前橋の夏祭りを復活させたい' }));
    expect(within(article).getByRole('link', { name: 'リターンを見る' })).toHaveAttribute('href', '/projects/maebashi-fes/#returns');
    expect(within(article).getByRole('link', { name: '詳しく見る' })).toHaveAttribute('href', '/projects/maebashi-fes/');
    expect(within(article).getByText('123,000円')).toBeInTheDocument();
    expect(within(article).getByText('1,000,000円')).toBeInTheDocument();
    expect(within(article).getByText('42人')).toBeInTheDocument();
    expect(within(article).getByText('残り36日')).toBeInTheDocument();
    expect(within(article).getByRole('img', { name: '達成率 12.3%' })).toBeInTheDocument();
    expect(within(article).getByRole('link', { name: /支援する/ })).toHaveAttribute('href', '/projects/maebashi-fes/#returns');
    const image = article.querySelector('img');
    expect(image).toHaveAttribute('width', '640');
    expect(image).toHaveAttribute('height', '427');
  });

  it('labels the ring with one decimal and caps the drawn arc at 100%', async () => {
    mockHome(projects);
    renderApp('/');

    const ended = await screen.findByRole('article', { name: '桐生織の新作発表会' });
    expect(within(ended).getByText('125.3%')).toBeInTheDocument();
    expect(within(ended).getAllByText('終了').length).toBeGreaterThan(0);
    expect(within(ended).getByRole('button', { name: '募集終了' })).toBeDisabled();
    expect(within(ended).queryByRole('link', { name: /支援する/ })).not.toBeInTheDocument();
    const bar = within(ended).getByTestId('ring-bar');
    expect(bar).toHaveAttribute('stroke-dasharray', String(RING_CIRCUMFERENCE));
    expect(bar).toHaveAttribute('stroke-dashoffset', '0');

    const open = screen.getByRole('article', { name: '前橋の夏祭りを復活させたい' });
    expect(within(open).getByTestId('ring-bar')).toHaveAttribute('stroke-dashoffset', String(ringOffset(12.3)));
  });

  it('says so when there is no project', async () => {
    mockHome([]);
    renderApp('/');

    expect(await screen.findByText('現在公開中のプロジェクトはありません。')).toBeInTheDocument();
  });

  it('shows an error with a retry when the projects cannot be loaded', async () => {
    server.use(
      http.get(apiUrl('/helper/get/master'), () => HttpResponse.json({ error: 'internal' }, { status: 500 })),
      http.get(apiUrl('/sales/get/allSum'), () => HttpResponse.json({ result: { amount: 0, lot: 0 } })),
    );
    renderApp('/');

    expect(await screen.findByRole('alert')).toHaveTextContent('プロジェクトを読み込めませんでした。');
    expect(screen.getByRole('button', { name: '再読み込みする' })).toBeInTheDocument();
  });

  it('shows a loading skeleton first', async () => {
    // The projects are answered only once the test has seen the skeleton.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get(apiUrl('/helper/get/master'), async () => {
        await answered;
        return HttpResponse.json({ master: { projects, env: { name: 'local', flag: false } } });
      }),
      http.get(apiUrl('/sales/get/allSum'), () => HttpResponse.json({ result: { amount: 0, lot: 0 } })),
    );
    renderApp('/');

    expect(await screen.findByRole('status', { name: '読み込み中' })).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('list', { name: 'プロジェクト' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: '読み込み中' })).not.toBeInTheDocument();
  });
});

describe('ringOffset', () => {
  it('maps 0..100 percent to the 488 circumference and clamps beyond', () => {
    expect(ringOffset(0)).toBe(488);
    expect(ringOffset(50)).toBe(244);
    expect(ringOffset(100)).toBe(0);
    expect(ringOffset(180)).toBe(0);
    expect(ringOffset(-5)).toBe(488);
  });
});
