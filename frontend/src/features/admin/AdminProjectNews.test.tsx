import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import { inputOf } from './projects/News';
import type { NewsInput } from './projects/types';
import { adminNews, adminReturn, publishedProject, serveNews, serveProject } from './testing/projects';

const newsSection = () => screen.findByRole('region', { name: '活動報告' });

describe('the news of a project (活動報告)', () => {
  it('lists the items with their state, audience and mail', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveNews([
      adminNews({ id: 83, title: '来週の報告', state: 'scheduled', publishedAt: '2026-12-24T09:00:00+09:00' }),
      adminNews({ id: 82, title: '書きかけ', state: 'draft', publishedAt: null }),
      adminNews({ audience: 'supporters', mailSupporters: true, mailQueuedAt: '2026-11-20T10:00:00+09:00', mailId: 9 }),
    ]);
    renderApp('/admin/projects/12/');

    const section = await newsSection();
    const list = await within(section).findByRole('list', { name: '活動報告（新しい順）' });
    const [scheduled, draft, published] = within(list).getAllByRole('listitem');
    expect(within(scheduled!).getByText('公開予約 2026年12月24日 09:00')).toBeInTheDocument();
    expect(within(draft!).getByText('下書き')).toBeInTheDocument();
    expect(within(published!).getByText('公開中')).toBeInTheDocument();
    expect(within(published!).getByText('支援者限定')).toBeInTheDocument();
    expect(within(published!).getByText('メール送信済み')).toBeInTheDocument();
    expect(within(published!).getByRole('button', { name: '「櫓の組み立てを始めました」を編集' })).toBeInTheDocument();
  });

  it('writes a supporters-only item for one return, publishes it with the mail and says so', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject({ returns: [adminReturn({ id: 31, title: 'お礼のお手紙' })] }));
    serveNews([]);
    const sent: NewsInput[] = [];
    server.use(
      http.post(apiUrl('/admin/projects/:id/news'), async ({ request }) => {
        const input = (await request.json()) as NewsInput;
        sent.push(input);
        return HttpResponse.json(
          adminNews({ title: input.title, audience: 'supporters', returnIds: [31], mailSupporters: true, mailQueuedAt: '2026-12-01T12:00:00+09:00', mailId: 5 }),
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const section = await newsSection();
    expect(await within(section).findByText('活動報告はまだありません。')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: '活動報告を書く' }));
    const form = within(section).getByRole('form', { name: '新しい活動報告' });
    // A blank title is refused before anything is sent.
    await user.click(within(form).getByRole('button', { name: '公開する' }));
    expect(within(form).getByText('タイトルを入力してください。')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await user.type(within(form).getByLabelText('タイトル'), '見学会のご案内');
    await user.click(within(form).getByRole('radio', { name: /支援者のみ/ }));
    await user.click(within(form).getByRole('checkbox', { name: 'お礼のお手紙' }));
    await user.click(within(form).getByRole('checkbox', { name: '支援者にメールで知らせる' }));
    await user.click(within(form).getByRole('button', { name: '公開する' }));

    expect(await within(section).findByText('活動報告を公開しました。支援者へのメールを送信予約しました。')).toBeInTheDocument();
    expect(sent).toEqual([
      expect.objectContaining({
        title: '見学会のご案内',
        audience: 'supporters',
        returnIds: [31],
        publish: true,
        publishAt: null,
        mailSupporters: true,
      }),
    ]);
    await waitFor(() => expect(within(section).queryByRole('form')).not.toBeInTheDocument());
  });

  it('sends a set time as Tokyo time and a draft without publishing', () => {
    const base = { title: ' t ', body: '', audience: 'public' as const, returnIds: [31], mailSupporters: false };
    expect(inputOf({ ...base, publication: 'at', publishAt: '2026-12-24T09:00' })).toMatchObject({
      title: 't',
      publish: true,
      publishAt: '2026-12-24T09:00:00+09:00',
      returnIds: [],
    });
    expect(inputOf({ ...base, publication: 'draft', publishAt: '' })).toMatchObject({ publish: false, publishAt: null });
  });
});
