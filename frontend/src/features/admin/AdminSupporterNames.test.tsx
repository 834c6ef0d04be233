import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { AdminSupporter } from './projects/types';
import { adminSupporter, publishedProject, serveProject, serveSupporters } from './testing/projects';

const section = () => screen.findByRole('region', { name: '支援者の表示名' });

/** Answers `POST .../supporters/{userId}/{action}` with `reply`; records the bodies received. */
const answerSupporterPost = (
  action: 'hide-name' | 'show-name',
  reply: AdminSupporter | { status: number; body: Record<string, unknown> },
) => {
  const bodies: unknown[] = [];
  server.use(
    http.post(apiUrl(`/admin/projects/:id/supporters/:userId/${action}`), async ({ request }) => {
      const text = await request.text();
      bodies.push(text ? JSON.parse(text) : null);
      return 'status' in reply && 'body' in reply
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return bodies;
};

describe('the supporters’ names of a project (支援者の表示名)', () => {
  it('lists each supporter with the amount and how the public pages name them', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveSupporters([
      adminSupporter(),
      adminSupporter({ userId: 32, name: null, email: 'quiet@example.jp', askedAnonymous: true, amount: 3000 }),
      adminSupporter({
        userId: 33,
        name: '不適切な名前',
        hiddenReason: '誹謗中傷にあたるため',
        hiddenAt: '2026-11-27T10:00:00+09:00',
      }),
    ]);
    renderApp('/admin/projects/12/');

    const list = await within(await section()).findByRole('list', { name: '支援者（支援額の多い順）' });
    const [named, quiet, hidden] = within(list).getAllByRole('article');
    expect(named).toHaveAccessibleName('ぐんまちゃん推し');
    expect(within(named!).getByText('5,500円')).toBeInTheDocument();
    expect(within(named!).getByText('名前を公開中')).toBeInTheDocument();
    expect(within(quiet!).getByText('（名前なし）')).toBeInTheDocument();
    expect(within(quiet!).getByText('匿名（本人の希望）')).toBeInTheDocument();
    expect(within(hidden!).getByText('匿名（運営が非表示）')).toBeInTheDocument();
    expect(within(hidden!).getByText(/非表示の理由：誹謗中傷にあたるため/)).toBeInTheDocument();
    expect(within(hidden!).getByRole('button', { name: '名前を再表示する' })).toBeInTheDocument();
  });

  it('says when nobody supports the project yet', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');

    expect(await within(await section()).findByText('まだ支援者はいません。')).toBeInTheDocument();
  });

  it('asks for a reason in a dialog, shows the server’s message under it, then hides the name', async () => {
    const user = userEvent.setup();
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveSupporters([adminSupporter()]);
    renderApp('/admin/projects/12/');
    const names = await section();
    await user.click(await within(names).findByRole('button', { name: '匿名にする' }));

    const dialog = await screen.findByRole('dialog', { name: '支援者の名前を匿名にする' });
    expect(dialog).toHaveTextContent('ぐんまちゃん推しさんの名前を、このプロジェクトの公開ページで「匿名」と表示します。');
    answerSupporterPost('hide-name', {
      status: 400,
      body: { error: 'validation_failed', message: '非表示の理由を入力してください。', field: 'reason' },
    });
    await user.click(within(dialog).getByRole('button', { name: '非表示にする' }));
    const reason = within(dialog).getByLabelText('非表示の理由');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('非表示の理由を入力してください。');
    expect(reason).toHaveAttribute('aria-invalid', 'true');

    const hidden = adminSupporter({ hiddenReason: '不適切な表示名', hiddenAt: '2026-11-28T10:00:00+09:00' });
    const sent = answerSupporterPost('hide-name', hidden);
    // The list is read again after the change: the server's list has it too.
    serveSupporters([hidden]);
    await user.type(reason, ' 不適切な表示名 ');
    await user.click(within(dialog).getByRole('button', { name: '非表示にする' }));

    expect(await within(names).findByText('ぐんまちゃん推しさんの名前を匿名にしました。')).toBeInTheDocument();
    expect(sent).toEqual([{ reason: '不適切な表示名' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(names).getByText('匿名（運営が非表示）')).toBeInTheDocument();
  });

  it('shows a hidden name again with one tap', async () => {
    const user = userEvent.setup();
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveSupporters([adminSupporter({ hiddenReason: '誤って非表示', hiddenAt: '2026-11-27T10:00:00+09:00' })]);
    renderApp('/admin/projects/12/');
    const names = await section();
    answerSupporterPost('show-name', adminSupporter());
    serveSupporters([adminSupporter()]);

    await user.click(await within(names).findByRole('button', { name: '名前を再表示する' }));

    expect(await within(names).findByText('ぐんまちゃん推しさんの名前を再表示しました。')).toBeInTheDocument();
    expect(within(names).getByText('名前を公開中')).toBeInTheDocument();
  });
});
