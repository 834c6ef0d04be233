import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render';

// The legal pages' chunk cannot be loaded, as when a deploy replaced it while the page was open.
vi.mock('@/features/public/routes/Legal', () => {
  throw new Error('Loading chunk legal failed');
});

describe('a page that cannot be shown', () => {
  it('asks the reader to reload, with a link to the top page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/terms/');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ページを表示できませんでした');
    expect(alert).toHaveTextContent('お手数ですが、ページを再読み込みしてください。');
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });

  it('shows the next page the reader goes to', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderApp('/terms/');
    await screen.findByRole('heading', { level: 1, name: 'ページを表示できませんでした' });

    await router.navigate('/login/');

    expect(await screen.findByRole('heading', { level: 1, name: 'ログイン' })).toBeInTheDocument();
    expect(screen.queryByText('ページを表示できませんでした')).not.toBeInTheDocument();
  });
});
