import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { ContentInput, ProjectContent } from './content/types';
import { emptyContent, publishedProject, serveContent, serveProject } from './testing/projects';

const section = () => screen.findByRole('region', { name: 'ページの内容（画像・実行者・よくある質問）' });

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'rose.png', { type: 'image/png' });

/** Answers the image uploads with `reply` and records each one's slot. */
const answerUploads = (reply: ProjectContent | { status: number; body: Record<string, unknown> }) => {
  // Only the address is read: jsdom's multipart bodies never finish reading in a handler (the Playwright spec
  // checks the alternative text end to end).
  const sent: (string | null)[] = [];
  server.use(
    http.post(apiUrl('/admin/projects/:id/images'), ({ request }) => {
      sent.push(new URL(request.url).searchParams.get('slot'));
      return 'status' in reply && 'body' in reply
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return sent;
};

const answerSave = (reply: ProjectContent | { status: number; body: Record<string, unknown> }) => {
  const bodies: ContentInput[] = [];
  server.use(
    http.post(apiUrl('/admin/projects/:id/content'), async ({ request }) => {
      bodies.push((await request.json()) as ContentInput);
      return 'status' in reply && 'body' in reply
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return bodies;
};

describe('the page content of a project (images, owner, FAQ)', () => {
  it('uploads a main image at once and shows it', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');
    const content = await section();
    expect(await within(content).findByText('メイン画像は未登録です。')).toBeInTheDocument();

    const sent = answerUploads({ ...emptyContent(), mainImageUrl: '/media/projects/12/main/a.png' });
    await user.upload(within(content).getByLabelText(/メイン画像を選ぶ/), png());

    expect(await within(content).findByRole('img', { name: '現在のメイン画像' })).toHaveAttribute(
      'src',
      '/media/projects/12/main/a.png',
    );
    expect(sent).toEqual(['main']);
    expect(within(content).getByRole('button', { name: 'メイン画像を削除する' })).toBeEnabled();
  });

  it('shows the server’s message when the file is not an image', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup({ applyAccept: false });
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');
    const content = await section();
    const message = 'jpg、jpeg、png、gif形式の画像を選択してください。';
    answerUploads({
      status: 400,
      body: { error: 'validation_failed', message, field: 'file', errors: [{ field: 'file', message }] },
    });

    await user.upload(
      await within(content).findByLabelText(/メイン画像を選ぶ/),
      new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }),
    );

    expect(await within(content).findByText(message)).toBeInTheDocument();
    expect(within(content).getByLabelText(/メイン画像を選ぶ/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('adds a slider image with its alternative text and saves the owner and a FAQ entry', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');
    const content = await section();
    expect(await within(content).findByText('スライダー画像はまだありません。')).toBeInTheDocument();
    expect(within(content).getByLabelText(/実行者の画像を選ぶ/)).toBeDisabled();

    const slide = { id: 5, src: '/media/projects/12/slider/s.png', alt: '満開のばら' };
    const uploads = answerUploads({ ...emptyContent(), slider: [slide] });
    await user.upload(within(content).getByLabelText('追加するスライダー画像'), png());
    await user.type(within(content).getByLabelText(/追加する画像の代替テキスト/), '満開のばら');
    await user.click(within(content).getByRole('button', { name: 'スライダーに追加する' }));
    expect(await within(content).findByLabelText(/1枚目の代替テキスト/)).toHaveValue('満開のばら');
    expect(uploads).toEqual(['slider']);

    const owner = { name: 'ばら園の会', imageUrl: null, profile: '', links: [] };
    const faq = { question: '見学できますか？', answer: 'いつでもどうぞ。' };
    const saved = answerSave({ ...emptyContent(), slider: [slide], owner, faqs: [faq] });
    await user.type(within(content).getByLabelText(/^実行者名/), 'ばら園の会');
    await user.click(within(content).getByRole('button', { name: '質問を追加する（20件まで）' }));
    await user.type(within(content).getByLabelText('質問1'), faq.question);
    await user.type(within(content).getByLabelText('回答1'), faq.answer);
    await user.click(within(content).getByRole('button', { name: 'ページの内容を保存する' }));

    expect(await within(content).findByText('ページの内容を保存しました。')).toBeInTheDocument();
    expect(saved).toEqual([
      {
        honorImgLink: null,
        slider: [{ id: 5, alt: '満開のばら' }],
        owner: { name: 'ばら園の会', profile: '', links: [] },
        faqs: [faq],
      },
    ]);
    // With the owner saved (and the content read again), its image can be chosen.
    await waitFor(() => expect(within(content).getByLabelText(/実行者の画像を選ぶ/)).toBeEnabled());
  }, 15_000);

  it('shows each refused field next to it and keeps what was typed', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    serveContent({ ...emptyContent(), faqs: [{ question: '雨の日は？', answer: '開催します。' }] });
    renderApp('/admin/projects/12/');
    const content = await section();
    const url = 'リンク先はhttp://またはhttps://で始まるURLを入力してください。';
    answerSave({
      status: 400,
      body: {
        error: 'validation_failed',
        message: url,
        field: 'honorImgLink',
        errors: [
          { field: 'honorImgLink', message: url },
          { field: 'faqs.0.answer', message: '回答を入力してください。' },
        ],
      },
    });
    await user.type(await within(content).findByLabelText(/名誉バナーのリンク先/), 'javascript:alert(1)');
    await user.clear(within(content).getByLabelText('回答1'));
    await user.click(within(content).getByRole('button', { name: 'ページの内容を保存する' }));

    expect(await within(content).findByText(url)).toBeInTheDocument();
    expect(within(content).getByText('回答を入力してください。')).toBeInTheDocument();
    expect(within(content).getByLabelText('回答1')).toHaveAttribute('aria-invalid', 'true');
    expect(within(content).getByLabelText(/名誉バナーのリンク先/)).toHaveValue('javascript:alert(1)');
  });

  it('reorders and removes FAQ entries before saving', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    const first = { question: 'Q1', answer: 'A1' };
    const second = { question: 'Q2', answer: 'A2' };
    serveContent({ ...emptyContent(), faqs: [first, second] });
    renderApp('/admin/projects/12/');
    const content = await section();

    const saved = answerSave({ ...emptyContent(), faqs: [second] });
    await user.click(await within(content).findByRole('button', { name: '質問2を上へ移動' }));
    expect(within(content).getByLabelText('質問1')).toHaveValue('Q2');
    await user.click(within(content).getByRole('button', { name: '質問2を削除' }));
    await user.click(within(content).getByRole('button', { name: 'ページの内容を保存する' }));

    await within(content).findByText('ページの内容を保存しました。');
    expect(saved.map((body) => body.faqs)).toEqual([[second]]);
  });
});
