import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';

describe('NotFound', () => {
  it('tells that the page was not found, with a link to the top', async () => {
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('お探しのページが見つかりませんでした。')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });

  it('says it in Japanese as a heading, explains why and links back home', async () => {
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 2, name: 'お探しのページが見つかりませんでした。' })).toBeInTheDocument();
    expect(screen.getByText(/URLが間違っているか、ページが移動または削除された可能性があります。/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });

  it('links to the projects still open, and only those', async () => {
    const project = (slug: string, title: string, isOpen: boolean) => ({ slug, title, isOpen, daysLeft: isOpen ? 3 : 0 });
    server.use(
      http.get(apiUrl('/helper/get/master'), () =>
        HttpResponse.json({
          master: {
            projects: [project('maebashi', '前橋の花壇', true), project('kiryu-textile', '桐生織 機場（はたば）再生プロジェクト', false)],
            env: { name: 'local', flag: false },
          },
        }),
      ),
    );
    renderApp('/no/such/page');

    const list = await screen.findByRole('region', { name: '募集中のプロジェクト' });
    const links = within(list).getAllByRole('link');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.getAttribute('href')).toMatch(/^\/projects\/[^/]+\/$/);
    expect(within(list).getByRole('link', { name: '前橋の花壇' })).toHaveAttribute('href', '/projects/maebashi/');
    expect(within(list).queryByText('桐生織 機場（はたば）再生プロジェクト')).not.toBeInTheDocument();
  });

  it('titles the document with the not-found title and the site name', async () => {
    renderApp('/no/such/page');

    await waitFor(() =>
      expect(document.title).toBe('お探しのページが見つかりませんでした | ぐんまクラウドファンディング'),
    );
    expect(document.querySelector('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  });

  it('is shown for a payment route without its slugs', async () => {
    renderApp('/payment/info/');

    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });
});
