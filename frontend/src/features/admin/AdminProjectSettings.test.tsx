import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { ProjectSettingsInput } from './content/types';
import { publishedProject, serveProject, serveSettings } from './testing/projects';

const section = () => screen.findByRole('region', { name: 'プロジェクトの設定（追加質問・振込先・スポンサー）' });

const answerSave = (reply: Record<string, unknown>, status = 200) => {
  const bodies: ProjectSettingsInput[] = [];
  server.use(
    http.post(apiUrl('/admin/projects/:id/settings'), async ({ request }) => {
      bodies.push((await request.json()) as ProjectSettingsInput);
      return HttpResponse.json(reply, { status });
    }),
  );
  return bodies;
};

describe('the settings of a project (追加質問・振込先・スポンサー)', () => {
  it('saves a question, the bank account and the footer switch', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    renderApp('/admin/projects/12/');
    const settings = await section();
    const bank = { bank: '群馬銀行', branch: '前橋支店', kinds: '普通', number: '1234567', nominee: 'マツリノカイ' };
    const sent = answerSave({
      projectId: 12,
      projectTitle: '前橋の夏祭りを復活させたい',
      additional: { label: 'Tシャツのサイズ', text: null, description: null, alert: null, formLine: 1 },
      bank,
      connectedAccountId: null,
      feeSchedule: 'standard',
      connectedAccountLocked: false,
      usesManualSponsors: false,
      hideFooterSponsors: true,
    });

    await user.type(await within(settings).findByLabelText('質問の見出し'), 'Tシャツのサイズ');
    const typed: [string, string][] = [
      ['銀行名', bank.bank],
      ['支店名', bank.branch],
      ['口座種別', bank.kinds],
      ['口座番号', bank.number],
      ['口座名義', bank.nominee],
    ];
    for (const [label, value] of typed) {
      await user.click(within(settings).getByLabelText(label));
      await user.paste(value);
    }
    await user.click(within(settings).getByRole('checkbox', { name: 'このプロジェクトのページでフッターのスポンサーを隠す' }));
    const fees = within(settings).getByRole('group', { name: /手数料の区分/ });
    expect(within(fees).getByRole('radio', { name: /^標準/ })).toBeChecked();
    await user.click(within(fees).getByRole('radio', { name: /^社内/ }));
    await user.click(within(settings).getByRole('button', { name: 'プロジェクトの設定を保存する' }));

    expect(await within(settings).findByText('プロジェクトの設定を保存しました。')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        additional: { label: 'Tシャツのサイズ', text: null, description: null, alert: null, formLine: 1 },
        bank,
        connectedAccountId: null,
        feeSchedule: 'internal',
        usesManualSponsors: false,
        hideFooterSponsors: true,
      },
    ]);
  }, 15_000);

  it('shows the bank message when only some of the five are given, and a published project’s account is locked', async () => {
    loginAs({ isAdmin: true });
    const user = userEvent.setup();
    serveProject(publishedProject());
    serveSettings({ connectedAccountId: 'acct_1abc', connectedAccountLocked: true });
    renderApp('/admin/projects/12/');
    const settings = await section();
    expect(await within(settings).findByLabelText(/連結アカウントID/)).toBeDisabled();
    // The account and the fee schedule, each with the reason.
    expect(within(settings).getAllByText('公開後は変更できません')).toHaveLength(2);
    const fees = within(settings).getByRole('group', { name: /手数料の区分/ });
    expect(within(fees).getByRole('radio', { name: /^社内/ })).toBeDisabled();
    const message = '振込先の口座は5項目すべてを入力するか、すべて空欄にしてください。';
    const sent = answerSave(
      { error: 'validation_failed', message, field: 'bank', errors: [{ field: 'bank', message }] },
      400,
    );

    await user.type(within(settings).getByLabelText('銀行名'), '群馬銀行');
    await user.click(within(settings).getByRole('button', { name: 'プロジェクトの設定を保存する' }));

    expect(await within(settings).findByText(message)).toBeInTheDocument();
    expect(sent[0]?.connectedAccountId).toBe('acct_1abc');
    expect(sent[0]?.feeSchedule).toBe('standard');
    expect(sent[0]?.bank).toEqual({ bank: '群馬銀行', branch: '', kinds: '', number: '', nominee: '' });
  });
});
