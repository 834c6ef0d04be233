import { expect, test } from './fixtures';
import { login } from './accounts';
import { ADMIN, DEMO_PASSWORD, PUBLIC_POLL, publishedProject, visitorPage } from './admin';

/**
 * An operator adds a monthly return in course A, offered to one member only: the form refuses an address that is
 * not one with the field's message, then saves it; the member sees it on the public page as a monthly support of
 * course A, and a visitor does not see it at all. Each run makes its own project, so the demo stays as it is.
 */

const MEMBER = 'demo-taro@example.jp';

test('an operator adds a monthly course A return for one member; only that member sees it', async ({
  page,
  browser,
  request,
}) => {
  const { id, slug } = await publishedProject(request, {
    slugPrefix: 'monthly-course',
    title: '富岡の桑畑を残したい',
    lead: '桑畑を手入れし、養蚕の体験を続けます。',
    story: '<p>桑畑の手入れと体験会の費用を募ります。</p>',
    goal: 200_000,
    ret: { title: '体験会のご案内', description: '体験会の日程をメールでお知らせします。', price: 1000 },
  });
  await login(page, ADMIN, DEMO_PASSWORD);
  await page.goto(`/admin/projects/${id}/`);

  await page.getByRole('button', { name: 'リターンを追加' }).click();
  const form = page.getByRole('region', { name: 'リターンを追加' });
  await form.getByLabel('タイトル', { exact: true }).fill('桑畑サポーター（毎月）');
  await form.getByLabel('内容', { exact: true }).fill('毎月、桑畑の様子をメールでお届けします。');
  await form.getByLabel('金額（円）', { exact: true }).fill('1500');
  await form.getByRole('group', { name: '支払い' }).getByRole('radio', { name: '毎月（月額支援）' }).check();
  await expect(form.getByLabel(/^在庫数/)).toBeDisabled();
  await form.getByLabel(/^コース/).fill('A');
  const address = form.getByLabel(/^公開先のメールアドレス/);
  await address.fill('demo-taro');
  await form.getByRole('button', { name: 'リターンを保存する' }).click();
  await expect(form.getByRole('alert')).toHaveText('公開先のメールアドレスを正しい形式（254文字以内）で入力してください。');
  await expect(address).toBeFocused();

  await address.fill(MEMBER);
  await form.getByRole('button', { name: 'リターンを保存する' }).click();
  await expect(page.getByText('リターンを保存しました。')).toBeVisible();
  const item = page
    .getByRole('list', { name: 'リターン（表示順）' })
    .getByRole('article', { name: '桑畑サポーター（毎月）', exact: true });
  await expect(item.getByText('月額', { exact: true })).toBeVisible();
  await expect(item.getByText('コースA', { exact: true })).toBeVisible();
  await expect(item.getByText(MEMBER)).toBeVisible();

  // The member it is offered to sees it, as a monthly support of course A.
  const member = await visitorPage(browser);
  await login(member, MEMBER, DEMO_PASSWORD);
  const offered = member.locator('#returns').getByRole('article', { name: '桑畑サポーター（毎月）', exact: true });
  await expect(async () => {
    await member.goto(`/projects/${slug}/`);
    await expect(offered).toBeVisible({ timeout: 1_000 });
  }).toPass(PUBLIC_POLL);
  await expect(offered.getByText('コースA')).toBeVisible();
  await expect(offered.getByText('毎月のご支援').first()).toBeVisible();
  await member.close();

  // A visitor sees the project's other return only.
  const visitor = await visitorPage(browser);
  await visitor.goto(`/projects/${slug}/`);
  await expect(visitor.locator('#returns').getByRole('article', { name: '体験会のご案内', exact: true })).toBeVisible();
  await expect(visitor.getByText('桑畑サポーター（毎月）')).toHaveCount(0);
  await visitor.close();
});
