import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import { manualSponsorFormData } from './content/rules';
import type { ManualSponsors } from './content/types';
import { manualSponsor, manualSponsors, publishedProject, serveManualSponsors, serveProject } from './testing/projects';

const section = () => screen.findByRole('region', { name: 'スポンサー一覧（手動の名簿）' });

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'jomo.png', { type: 'image/png' });

type Reply = ManualSponsors | { status: number; body: Record<string, unknown> };

/** Answers `POST /v1/admin/projects/{id}/manual-sponsors{path}` with `reply` and records each request's path. */
const answerPost = (path: string, reply: Reply) => {
  // Only the address (and a JSON body) is read: jsdom's multipart bodies never finish reading in a handler; the
  // form's fields are checked through `manualSponsorFormData` and the Playwright spec.
  const sent: { url: string; body: unknown }[] = [];
  server.use(
    http.post(apiUrl(`/admin/projects/:id/manual-sponsors${path}`), async ({ request }) => {
      const json = request.headers.get('content-type')?.includes('json') ? await request.json() : null;
      sent.push({ url: new URL(request.url).pathname, body: json });
      return 'status' in reply && 'body' in reply
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return sent;
};

const listed = manualSponsors({
  entries: [
    manualSponsor({ id: 1, name: '上毛電機株式会社', canMoveDown: true }),
    manualSponsor({ id: 2, name: '赤城食品', canMoveUp: true }),
    manualSponsor({ id: 3, course: 'C', name: '榛名印刷', logoSrc: '/media/h.png', amount: 30_000 }),
    manualSponsor({ id: 4, course: 'supporter', name: '群馬 太郎', logoSrc: null, link: null }),
  ],
});

describe('the manual sponsor list of a project (スポンサー一覧)', () => {
  it('lists the entries course by course in the walls’ order, with their logos and move buttons', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveManualSponsors(listed);
    renderApp('/admin/projects/12/');
    const sponsors = await section();

    const courseA = await within(sponsors).findByRole('list', { name: 'Aコース（ロゴ大）（表示順）' });
    const names = within(courseA)
      .getAllByRole('heading')
      .map((h) => h.textContent);
    expect(names).toEqual(['上毛電機株式会社', '赤城食品']);
    expect(within(courseA).getByRole('img', { name: '上毛電機株式会社のロゴ' })).toHaveAttribute(
      'src',
      '/media/projects/12/sponsors/jomo.png',
    );
    expect(within(courseA).getByRole('button', { name: '上毛電機株式会社を上へ移動' })).toBeDisabled();
    expect(within(courseA).getByRole('button', { name: '上毛電機株式会社を下へ移動' })).toBeEnabled();
    expect(within(sponsors).queryByRole('list', { name: 'Bコース（ロゴ中）（表示順）' })).toBeNull();
    const courseC = within(sponsors).getByRole('list', { name: 'Cコース（ロゴ小）（表示順）' });
    expect(within(courseC).getByText('30,000円')).toBeInTheDocument();
    expect(within(sponsors).getByRole('list', { name: '個人サポーター（名前のみ）（表示順）' })).toHaveTextContent(
      '群馬 太郎',
    );
    expect(within(sponsors).getByText(/この名簿がプロジェクトページのスポンサー欄に表示されます/)).toBeInTheDocument();
  }, 15_000);

  it('says when the list is empty and that it is not shown while the switch is off', async () => {
    loginAs({ isAdmin: true });
    serveProject(publishedProject());
    serveManualSponsors({ usesManualSponsors: false });
    renderApp('/admin/projects/12/');
    const sponsors = await section();

    expect(await within(sponsors).findByText('スポンサーはまだ登録されていません。')).toBeInTheDocument();
    expect(within(sponsors).getByText(/オフのため、この名簿は公開ページに表示されません/)).toBeInTheDocument();
  });

  it('adds a course A sponsor with its logo and says so', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');
    const sponsors = await section();
    const sent = answerPost('', manualSponsors({ entries: [manualSponsor({ id: 9 })] }));

    await user.click(await within(sponsors).findByRole('button', { name: 'スポンサーを追加' }));
    const form = within(sponsors).getByRole('form', { name: 'スポンサーを追加' });
    expect(within(form).getByLabelText('コース')).toHaveValue('A');
    await user.type(within(form).getByLabelText('スポンサー名'), '上毛電機株式会社');
    await user.upload(within(form).getByLabelText('ロゴ画像'), png());
    await user.type(within(form).getByLabelText(/リンク先/), 'https://jomo-denki.example.jp');
    await user.click(within(form).getByRole('button', { name: 'スポンサーを保存する' }));

    expect(await within(sponsors).findByText('スポンサーを追加しました。')).toBeInTheDocument();
    expect(sent.map((s) => s.url)).toEqual(['/v1/admin/projects/12/manual-sponsors']);
    // The notice and the list from the answer land in separate renders: wait for the list.
    expect(await within(sponsors).findByRole('heading', { name: '上毛電機株式会社' })).toBeInTheDocument();
    expect(within(sponsors).queryByRole('form')).toBeNull();
  }, 15_000);

  it('shows the server’s message next to the field it names', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');
    const sponsors = await section();
    const message = 'A・B・Cコースにはロゴ画像が必要です。画像を選択してください。';
    answerPost('', {
      status: 400,
      body: { error: 'validation_failed', message, field: 'file', errors: [{ field: 'file', message }] },
    });

    await user.click(await within(sponsors).findByRole('button', { name: 'スポンサーを追加' }));
    const form = within(sponsors).getByRole('form', { name: 'スポンサーを追加' });
    await user.type(within(form).getByLabelText('スポンサー名'), '上毛電機株式会社');
    await user.click(within(form).getByRole('button', { name: 'スポンサーを保存する' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(message);
    expect(within(form).getByLabelText('ロゴ画像')).toHaveAttribute('aria-invalid', 'true');
  });

  it('deletes an entry only after the dialog is confirmed', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    serveManualSponsors(listed);
    renderApp('/admin/projects/12/');
    const sponsors = await section();
    const sent = answerPost('/:sponsorId/delete', { ...listed, entries: listed.entries.filter((e) => e.id !== 2) });

    await user.click(await within(sponsors).findByRole('button', { name: '赤城食品を削除' }));
    const dialog = screen.getByRole('dialog', { name: 'スポンサーの削除' });
    expect(dialog).toHaveTextContent('「赤城食品」をスポンサー一覧から削除します。よろしいですか？');
    await user.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    expect(sent).toEqual([]);

    await user.click(within(sponsors).getByRole('button', { name: '赤城食品を削除' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '削除する' }));

    expect(await within(sponsors).findByText('スポンサーを削除しました。')).toBeInTheDocument();
    expect(sent.map((s) => s.url)).toEqual(['/v1/admin/projects/12/manual-sponsors/2/delete']);
    await waitFor(() => expect(within(sponsors).queryByRole('heading', { name: '赤城食品' })).toBeNull());
  });

  it('moves an entry down and shows a refused move as an error', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    serveManualSponsors(listed);
    renderApp('/admin/projects/12/');
    const sponsors = await section();
    const swapped = manualSponsors({
      entries: [
        manualSponsor({ id: 2, name: '赤城食品', canMoveDown: true }),
        manualSponsor({ id: 1, name: '上毛電機株式会社', canMoveUp: true }),
      ],
    });
    const sent = answerPost('/:sponsorId/move', swapped);

    await user.click(await within(sponsors).findByRole('button', { name: '上毛電機株式会社を下へ移動' }));

    expect(await within(sponsors).findByText('スポンサーの並び順を変更しました。')).toBeInTheDocument();
    expect(sent).toEqual([{ url: '/v1/admin/projects/12/manual-sponsors/1/move', body: { direction: 'down' } }]);
    const courseA = within(sponsors).getByRole('list', { name: 'Aコース（ロゴ大）（表示順）' });
    await waitFor(() =>
      expect(within(courseA).getAllByRole('heading').map((h) => h.textContent)).toEqual(['赤城食品', '上毛電機株式会社']),
    );

    const refused = '金額と最新の支援日の順に並ぶため、この向きには移動できません。';
    answerPost('/:sponsorId/move', {
      status: 400,
      body: { error: 'validation_failed', message: refused, field: 'direction', errors: [{ field: 'direction', message: refused }] },
    });
    await user.click(within(sponsors).getByRole('button', { name: '赤城食品を下へ移動' }));
    expect(await within(sponsors).findByText(refused)).toBeInTheDocument();
  });

  it('offers a retry when the list cannot be read', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    server.use(
      http.get(apiUrl('/admin/projects/:id/manual-sponsors'), () =>
        HttpResponse.json({ error: 'internal', message: 'サーバーでエラーが発生しました。' }, { status: 500 }),
      ),
    );
    renderApp('/admin/projects/12/');
    const sponsors = await section();

    const retry = await within(sponsors).findByRole('button', { name: '再読み込みする' });
    serveManualSponsors(listed);
    await user.click(retry);

    expect(await within(sponsors).findByRole('heading', { name: '赤城食品' })).toBeInTheDocument();
  });
});

describe('the sponsor form’s body', () => {
  it('sends every text as typed and the logo only when one was chosen', () => {
    const draft = { course: 'B' as const, name: ' 赤城食品 ', link: '', amount: '5000', latestDate: '2026-11-01' };
    const withLogo = manualSponsorFormData(draft, png());
    expect([...withLogo.keys()]).toEqual(['course', 'name', 'link', 'amount', 'latestDate', 'file']);
    expect(withLogo.get('name')).toBe(' 赤城食品 ');
    expect((withLogo.get('file') as File).name).toBe('jomo.png');
    expect(manualSponsorFormData(draft, null).has('file')).toBe(false);
  });
});
