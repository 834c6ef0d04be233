import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { HideCommentInput } from './projects/types';
import { adminComment, answerCommentPost, publishedProject, serveComments, serveProject } from './testing/projects';

const commentsSection = () => screen.findByRole('region', { name: '応援コメント' });

/** The card of the comment whose text contains `text`. */
const commentCard = (section: HTMLElement, text: string) => {
  const card = within(section)
    .getAllByRole('article')
    .find((article) => article.textContent?.includes(text));
  if (!card) throw new Error(`no comment card with ${text}`);
  return card;
};

describe('the supporters’ comments of a project (応援コメント)', () => {
  it('lists them newest first: author, e-mail, text with its line breaks, date and state', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveComments([
      adminComment({
        id: 502,
        author: '匿名',
        authorEmail: 'hanako@example.jp',
        comment: '一行目です。\n二行目です。',
        createdAt: '2026-11-25T18:30:00+09:00',
      }),
      adminComment({ shown: false, hiddenReason: '個人情報が含まれていたため' }),
    ]);
    renderApp('/admin/projects/12/');

    const section = await commentsSection();
    const list = await within(section).findByRole('list', { name: '応援コメント（新しい順）' });
    const [newest, older] = within(list).getAllByRole('article');
    expect(newest).toHaveAccessibleName('匿名 2026年11月25日 18:30');
    expect(within(newest!).getByText('hanako@example.jp')).toBeInTheDocument();
    // The text as written: the line break stays in it (the card keeps it with `white-space: pre-wrap`).
    expect(within(newest!).getByText(/一行目です。/).textContent).toBe('一行目です。\n二行目です。');
    expect(within(newest!).getByText('2026年11月25日 18:30')).toHaveAttribute('datetime', '2026-11-25T18:30:00+09:00');
    expect(within(newest!).getByText('公開中')).toBeInTheDocument();
    expect(within(newest!).getByRole('button', { name: '非表示にする' })).toHaveAccessibleDescription(
      '匿名 2026年11月25日 18:30',
    );
    expect(within(newest!).queryByRole('button', { name: '再表示する' })).not.toBeInTheDocument();

    expect(older).toHaveAccessibleName('山田太郎 2026年11月20日 09:05');
    expect(within(older!).getByText('応援しています！')).toBeInTheDocument();
    expect(within(older!).getByText('非表示')).toBeInTheDocument();
    expect(within(older!).getByText('非表示の理由：個人情報が含まれていたため')).toBeInTheDocument();
    expect(within(older!).getByRole('button', { name: '再表示する' })).toBeInTheDocument();
    expect(within(older!).queryByRole('button', { name: '非表示にする' })).not.toBeInTheDocument();
  });

  it('says when there is none yet', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');

    const section = await commentsSection();
    expect(await within(section).findByText('コメントはまだありません。')).toBeInTheDocument();
    expect(within(section).queryByRole('list')).not.toBeInTheDocument();
  });

  it('offers a retry when the comments cannot be read', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    server.use(
      http.get(apiUrl('/admin/projects/:id/comments'), () =>
        HttpResponse.json({ error: 'internal_error', message: 'エラーが発生しました。' }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const section = await commentsSection();
    expect(await within(section).findByRole('alert')).toHaveTextContent('エラーが発生しました。');
    serveComments([adminComment()]);
    await user.click(within(section).getByRole('button', { name: '再読み込みする' }));
    expect(await within(section).findByText('応援しています！')).toBeInTheDocument();
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('hides a comment with a reason, showing the server’s message under the reason until one is given', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveComments([adminComment()]);
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const section = await commentsSection();
    await within(section).findByText('応援しています！');
    const toggle = within(commentCard(section, '応援しています！')).getByRole('button', { name: '非表示にする' });
    await user.click(toggle);
    const dialog = screen.getByRole('dialog', { name: 'コメントを非表示にする' });
    expect(dialog).toHaveTextContent('応援しています！');
    const reason = within(dialog).getByLabelText('非表示の理由');
    expect(reason).toHaveFocus();
    expect(reason).toBeRequired();
    expect(reason).toHaveAttribute('maxLength', '200');

    // Sent without a reason: the server's message goes under the field.
    const refused = answerCommentPost<HideCommentInput>('hide', {
      status: 400,
      body: { error: 'validation_failed', message: '非表示の理由を入力してください。', field: 'reason' },
    });
    await user.click(within(dialog).getByRole('button', { name: '非表示にする' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(/^非表示の理由を入力してください。$/);
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(/非表示の理由を入力してください。/);
    expect(reason).toHaveFocus();
    expect(refused).toEqual([{ id: 501, body: { reason: '' } }]);
    expect(screen.getByRole('dialog', { name: 'コメントを非表示にする' })).toBeInTheDocument();

    // One line: a line break typed becomes a space (the server refuses one).
    expect(reason).toHaveAccessibleDescription(/改行は入れられません/);
    await user.type(reason, '誹謗中傷に{Enter}あたるため');
    expect(reason).toHaveValue('誹謗中傷に あたるため');
    await user.clear(reason);
    await user.type(reason, '誹謗中傷にあたるため');
    const hidden = adminComment({ shown: false, hiddenReason: '誹謗中傷にあたるため' });
    const sent = answerCommentPost<HideCommentInput>('hide', hidden);
    serveComments([hidden]);
    await user.click(within(dialog).getByRole('button', { name: '非表示にする' }));

    const status = await within(section).findByRole('status');
    expect(status).toHaveTextContent('コメントを非表示にしました。');
    expect(sent).toEqual([{ id: 501, body: { reason: '誹謗中傷にあたるため' } }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const card = commentCard(section, '応援しています！');
    expect(within(card).getByText('非表示')).toBeInTheDocument();
    expect(within(card).getByText('非表示の理由：誹謗中傷にあたるため')).toBeInTheDocument();
    expect(within(card).queryByText('公開中')).not.toBeInTheDocument();
    // The focus is back on the comment's button, which now shows it again.
    await waitFor(() => expect(within(card).getByRole('button', { name: '再表示する' })).toHaveFocus());
  });

  it('closes the dialog on キャンセル without sending anything', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveComments([adminComment()]);
    const sent = answerCommentPost('hide', adminComment({ shown: false, hiddenReason: '送られないはず' }));
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const section = await commentsSection();
    await within(section).findByText('応援しています！');
    const toggle = within(commentCard(section, '応援しています！')).getByRole('button', { name: '非表示にする' });
    await user.click(toggle);
    const dialog = screen.getByRole('dialog', { name: 'コメントを非表示にする' });
    await user.type(within(dialog).getByLabelText('非表示の理由'), '途中まで');
    await user.click(within(dialog).getByRole('button', { name: 'キャンセル' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
    expect(sent).toEqual([]);
    expect(within(section).getByText('公開中')).toBeInTheDocument();
  });

  it('shows a hidden comment again and says so', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveComments([adminComment({ shown: false, hiddenReason: '誹謗中傷にあたるため' })]);
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const section = await commentsSection();
    await within(section).findByText('応援しています！');
    const card = commentCard(section, '応援しています！');
    const sent = answerCommentPost('show', adminComment());
    serveComments([adminComment()]);
    await user.click(within(card).getByRole('button', { name: '再表示する' }));

    const status = await within(section).findByRole('status');
    expect(status).toHaveTextContent('コメントを再表示しました。');
    expect(sent).toEqual([{ id: 501, body: null }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(card).getByText('公開中')).toBeInTheDocument();
    expect(within(card).queryByText(/非表示の理由/)).not.toBeInTheDocument();
    const toggle = within(card).getByRole('button', { name: '非表示にする' });
    expect(toggle).toHaveFocus();
  });

  it('shows the server’s refusal to show a comment again', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveComments([adminComment({ shown: false, hiddenReason: '誹謗中傷にあたるため' })]);
    const user = userEvent.setup();
    renderApp('/admin/projects/12/');

    const section = await commentsSection();
    await within(section).findByText('応援しています！');
    answerCommentPost('show', { status: 404, body: { error: 'not_found', message: 'コメントが見つかりません。' } });
    await user.click(within(commentCard(section, '応援しています！')).getByRole('button', { name: '再表示する' }));

    expect(await within(section).findByRole('alert')).toHaveTextContent('コメントが見つかりません。');
    expect(within(section).queryByRole('status')).not.toBeInTheDocument();
    expect(within(section).getByText('非表示')).toBeInTheDocument();
  });
});
