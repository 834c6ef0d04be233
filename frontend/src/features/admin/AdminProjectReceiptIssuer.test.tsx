import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { ReceiptIssuerInput, ReceiptIssuerSettings } from './projects/types';
import { publishedProject, serveProject, serveReceiptIssuer } from './testing/projects';

const section = () => screen.findByRole('region', { name: '領収書の発行者' });

/** Answers `PUT /v1/admin/projects/{id}/receipt-issuer` with `reply` and records the bodies. */
const answerPut = (reply: ReceiptIssuerSettings | { status: number; body: Record<string, unknown> }) => {
  const bodies: ReceiptIssuerInput[] = [];
  server.use(
    http.put(apiUrl('/admin/projects/:id/receipt-issuer'), async ({ request }) => {
      bodies.push((await request.json()) as ReceiptIssuerInput);
      return 'status' in reply && 'body' in reply
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return bodies;
};

describe('the receipt issuer of a project (領収書の発行者)', () => {
  it('says receipts name the operator while none is set, and saves a name with a registration number', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');

    const issuer = await section();
    expect(await within(issuer).findByText(/未設定です/)).toBeInTheDocument();
    const sent = answerPut({
      projectId: 12,
      projectTitle: '前橋の夏祭りを復活させたい',
      issuerName: '前橋夏祭り実行委員会',
      registrationNumber: 'T1234567890123',
      updatedAt: '2026-12-03T10:00:00+09:00',
    });
    await user.type(within(issuer).getByRole('textbox', { name: '発行者名' }), '前橋夏祭り実行委員会');
    await user.type(within(issuer).getByRole('textbox', { name: /登録番号/ }), 'Ｔ１２３４５６７８９０１２３');
    await user.click(within(issuer).getByRole('button', { name: '領収書の発行者を保存する' }));

    expect(await within(issuer).findByText('領収書の発行者を保存しました。')).toBeInTheDocument();
    expect(sent).toEqual([{ issuerName: '前橋夏祭り実行委員会', registrationNumber: 'Ｔ１２３４５６７８９０１２３' }]);
    // The server's normalised number replaces what was typed.
    await waitFor(() =>
      expect(within(issuer).getByRole('textbox', { name: /登録番号/ })).toHaveValue('T1234567890123'),
    );
    expect(await within(issuer).findByText('最終更新：2026年12月3日 10:00')).toBeInTheDocument();
  });

  it('shows each of the server’s messages next to its field, and sends an empty number as none', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    serveReceiptIssuer({ issuerName: '前橋夏祭り実行委員会', registrationNumber: null });
    renderApp('/admin/projects/12/');

    const issuer = await section();
    const name = await within(issuer).findByRole('textbox', { name: '発行者名' });
    expect(name).toHaveValue('前橋夏祭り実行委員会');
    const sent = answerPut({
      status: 400,
      body: {
        error: 'validation_failed',
        message: '発行者名を入力してください。',
        field: 'issuerName',
        errors: [
          { field: 'issuerName', message: '発行者名を入力してください。' },
          { field: 'registrationNumber', message: '登録番号はTと13桁の数字で入力してください。' },
        ],
      },
    });
    await user.clear(name);
    await user.click(within(issuer).getByRole('button', { name: '領収書の発行者を保存する' }));

    expect(await within(issuer).findByText('発行者名を入力してください。')).toBeInTheDocument();
    expect(within(issuer).getByText('登録番号はTと13桁の数字で入力してください。')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([{ issuerName: '', registrationNumber: null }]);
  });
});
