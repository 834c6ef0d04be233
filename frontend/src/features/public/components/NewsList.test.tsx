import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { mockProjectPage, news } from '../testing/fixtures';
import { NEWS_LOCKED } from './NewsList';

describe('the project page’s news (活動報告)', () => {
  it('shows a supporters-only item the reader may not read as a locked teaser: title and date, no body', async () => {
    mockProjectPage({
      news: [
        news({ id: 3, title: '支援者の皆さまへ', description: null, audience: 'supporters', locked: true }),
        news({ id: 2, title: '公開の報告', description: '<p>誰でも読めます。</p>' }),
      ],
    });
    const user = userEvent.setup();
    renderApp('/projects/maebashi-fes/');

    await user.click(await screen.findByRole('tab', { name: /^活動報告/ }));
    const panel = screen.getByRole('tabpanel', { name: /^活動報告/ });
    const locked = (await within(panel).findByText('支援者の皆さまへ')).closest('li')!;
    expect(within(locked).getByText('支援者限定')).toBeInTheDocument();
    expect(within(locked).getByText(NEWS_LOCKED)).toBeInTheDocument();
    const open = within(panel).getByText('公開の報告').closest('li')!;
    expect(within(open).getByText('誰でも読めます。')).toBeInTheDocument();
    expect(within(open).queryByText(NEWS_LOCKED)).not.toBeInTheDocument();
  });

  it('shows a supporters-only item the reader may read in full, marked 支援者限定', async () => {
    mockProjectPage({
      news: [news({ title: '合言葉のお知らせ', description: '<p>合言葉はローズです。</p>', audience: 'supporters' })],
    });
    const user = userEvent.setup();
    renderApp('/projects/maebashi-fes/');

    await user.click(await screen.findByRole('tab', { name: /^活動報告/ }));
    const panel = screen.getByRole('tabpanel', { name: /^活動報告/ });
    expect(await within(panel).findByText('合言葉はローズです。')).toBeInTheDocument();
    expect(within(panel).getByText('支援者限定')).toBeInTheDocument();
    expect(within(panel).queryByText(NEWS_LOCKED)).not.toBeInTheDocument();
  });
});
