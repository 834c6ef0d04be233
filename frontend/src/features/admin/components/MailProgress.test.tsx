import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { MailDetail } from '../api/mailApi';

const mail = (id: number, status: 'sending' | 'sent', recipients: string[]): MailDetail => ({
  id,
  title: `お知らせ ${id}`,
  excerpt: '活動報告会を開催します。',
  content: '<p>活動報告会を開催します。</p>',
  createdAt: '2026-11-27T10:00:00+09:00',
  projectId: null,
  projectTitle: null,
  senderEmail: 'demo-admin@example.jp',
  senderName: '管理者',
  progress: {
    status,
    total: recipients.length,
    sent: status === 'sent' ? recipients.length : 0,
    failed: 0,
  },
  recipients: recipients.map((email) => ({
    email,
    status: status === 'sent' ? 'sent' : 'pending',
    attempts: status === 'sent' ? 1 : 0,
    error: null,
    sentAt: status === 'sent' ? '2026-11-27T10:00:05+09:00' : null,
  })),
});

/** Each mail's detail answers, in turn, with the given states (the last one repeats). */
const serveMails = (answers: Record<number, MailDetail[]>) => {
  const reads: Record<number, number> = {};
  server.use(
    http.get(apiUrl('/mail/get/detail'), ({ request }) => {
      const id = Number(new URL(request.url).searchParams.get('id'));
      const states = answers[id] ?? [];
      reads[id] = (reads[id] ?? 0) + 1;
      const answer = states[Math.min(reads[id]! - 1, states.length - 1)];
      return answer
        ? HttpResponse.json({ mail: answer })
        : HttpResponse.json({ error: 'not_found', message: 'x' }, { status: 404 });
    }),
    http.get(apiUrl('/mail/get/preview'), () => HttpResponse.json({ recipients: 2 })),
  );
};

describe('the progress of a mail being sent', () => {
  it('follows a second mail sent from the same page to its end', async () => {
    serveMails({
      1: [mail(1, 'sent', ['first@example.jp'])],
      2: [mail(2, 'sending', ['second@example.jp', 'third@example.jp']), mail(2, 'sent', ['second@example.jp', 'third@example.jp'])],
    });
    loginAs({ isAdmin: true });
    const { router } = renderApp('/admin/mail/register/?sending=1');
    const first = await screen.findByRole('list', { name: '送信先のメールアドレス' });
    expect(within(first).getByRole('listitem')).toHaveTextContent('first@example.jp');

    // The form sends the next mail: the page follows the new one.
    await router.navigate('/admin/mail/register/?sending=2');
    expect(await screen.findByRole('heading', { name: '「お知らせ 2」の送信' })).toBeInTheDocument();
    const second = await screen.findByRole('list', { name: '送信先のメールアドレス' }, { timeout: 5_000 });
    expect(within(second).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'second@example.jp',
      'third@example.jp',
    ]);
    expect(screen.getByText('メール送信が完了しました。')).toBeInTheDocument();
  }, 15_000);
});
