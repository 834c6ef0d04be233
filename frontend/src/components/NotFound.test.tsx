import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';

describe('NotFound', () => {
  it('tells that the page was not found, with a link to the top', async () => {
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('お探しのページが見つかりませんでした。')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
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
