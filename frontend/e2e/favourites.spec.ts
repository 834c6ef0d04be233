import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { login, registeredMember, submitLogin } from './accounts';

/**
 * お気に入り and my page's 支援したプロジェクト against the real server, on a phone and on a desktop: a new member
 * keeps a project from its page and another from a home card, finds both on my page and removes them; a guest
 * who taps the button is sent to log in and comes back to the project; a demo member sees a project they
 * support, once, with its state and the way to the payment history.
 */

const DARUMA = { slug: 'takasaki-daruma', title: '高崎だるま 若手職人育成プロジェクト' };
const TOMIOKA = { slug: 'tomioka-silk-walk', title: '富岡 シルクのまち歩きマップ' };
const KEEP = 'お気に入りに追加';
const UNKEEP = 'お気に入りから外す';

const hero = (page: Page, title: string) => page.getByRole('region', { name: title }).first();
const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const favourites = (page: Page) => page.getByRole('region', { name: 'お気に入り' });

/** Taps a お気に入り button once it answers (the session checked and the member's list read: no `aria-busy`). */
const tap = async (button: Locator): Promise<void> => {
  await expect(button).not.toHaveAttribute('aria-busy', 'true');
  await button.click();
};

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test.describe(`お気に入り at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('a member keeps projects from the project page and a card, finds them on my page and removes them', async ({
      page,
    }) => {
      await registeredMember(page, `fav-${viewport.name}`);

      // From the project page.
      await page.goto(`/projects/${DARUMA.slug}/`);
      const pageButton = hero(page, DARUMA.title).getByRole('button', { name: KEEP });
      await expect(pageButton).toHaveAttribute('aria-pressed', 'false');
      await tap(pageButton);
      await expect(hero(page, DARUMA.title).getByRole('button', { name: UNKEEP })).toHaveAttribute(
        'aria-pressed',
        'true',
      );

      // From a card on the home page.
      await page.goto('/');
      const tomioka = card(page, TOMIOKA.title);
      await tap(tomioka.getByRole('button', { name: KEEP }));
      await expect(tomioka.getByRole('button', { name: UNKEEP })).toHaveAttribute('aria-pressed', 'true');
      await expect(card(page, DARUMA.title).getByRole('button', { name: UNKEEP })).toBeVisible();

      // On my page, newest first, each with its state.
      await page.goto('/account/');
      const list = favourites(page);
      const kept = list.getByRole('article');
      await expect(kept).toHaveCount(2);
      await expect(kept.nth(0)).toHaveAccessibleName(TOMIOKA.title);
      await expect(kept.nth(1)).toHaveAccessibleName(DARUMA.title);
      await expect(list.getByRole('article', { name: DARUMA.title }).getByText('募集中')).toBeVisible();
      const button = list.getByRole('article', { name: DARUMA.title }).getByRole('button', { name: UNKEEP });
      await button.scrollIntoViewIfNeeded();
      const box = await button.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);

      // Removed from my page; the project page agrees after a reload.
      await tap(button);
      await expect(list.getByRole('article', { name: DARUMA.title })).toHaveCount(0);
      await tap(list.getByRole('article', { name: TOMIOKA.title }).getByRole('button', { name: UNKEEP }));
      await expect(list.getByText(/お気に入りはまだありません。/)).toBeVisible();
      await page.goto(`/projects/${DARUMA.slug}/`);
      await expect(hero(page, DARUMA.title).getByRole('button', { name: KEEP })).toHaveAttribute(
        'aria-pressed',
        'false',
      );
    });

    test('a guest who taps the button logs in and comes back to the project', async ({ page }) => {
      await page.goto(`/projects/${DARUMA.slug}/`);
      await tap(hero(page, DARUMA.title).getByRole('button', { name: KEEP }));

      await expect(page).toHaveURL(/\/login\/$/);
      await submitLogin(page, 'demo-hanako@example.jp', 'demo-password-1');
      await expect(page).toHaveURL(new RegExp(`/projects/${DARUMA.slug}/$`));
      await expect(hero(page, DARUMA.title).getByRole('button', { name: /お気に入り/ })).toBeVisible();
    });

    test('my page lists a project the demo member supports once, with its state and payment history', async ({
      page,
    }) => {
      await login(page, 'demo-taro@example.jp', 'demo-password-1');

      const region = page.getByRole('region', { name: '支援したプロジェクト' });
      const line = region.getByRole('article', { name: DARUMA.title });
      await expect(line).toHaveCount(1);
      await expect(line.getByRole('link', { name: DARUMA.title })).toHaveAttribute('href', `/projects/${DARUMA.slug}/`);
      await expect(line.getByText('募集中')).toBeVisible();
      await expect(line.getByText(/× \d+口/).first()).toBeVisible();
      await line.getByRole('link', { name: 'お支払い履歴' }).click();
      await expect(page).toHaveURL(/\/edit\/payment-list$/);
    });
  });
}
