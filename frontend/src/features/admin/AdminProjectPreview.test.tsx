import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { apiUrl, server } from '@/testing/server';
import { loginAs } from '@/testing/session';
import type { PreviewProject } from './api/projectsApi';
import { adminProject, serveProject } from './testing/projects';

const SITE = 'ぐんまクラウドファンディング';

/** A draft as `GET /v1/admin/projects/{id}/preview` answers it: the public detail's shape. */
const draftDetail = (overrides: Partial<PreviewProject> = {}): PreviewProject => ({
  id: 12,
  slug: 'kiryu-textile',
  title: '桐生織の工房を次の世代へ',
  description: '百年続く工房の織機を直します。',
  target: 2_000_000,
  period: '2027-01-31',
  urls: { main: null },
  isDonation: false,
  taxIncludes: true,
  hasAnonymousBank: false,
  daysLeft: 60,
  isOpen: false,
  sum: { amount: 0, lot: 0 },
  progress: { ring: 0, card: 0, capped: 0 },
  achieved: false,
  area: null,
  category: null,
  content: '<p>工房の<strong>織機</strong>の話です。</p>',
  slider: [],
  honorImgUrl: null,
  ImgUrlLink: null,
  anonymousBank: null,
  settings: { usesManualSponsors: false, hideFooterSponsors: false },
  returns: [
    {
      id: 31,
      slug: 'letter',
      type: 0,
      title: 'お礼のお手紙',
      description: '感謝のお手紙を郵送でお届けします。',
      price: 3_000,
      tax: 0,
      total: 3_000,
      taxLabel: '税込',
      limit: 50,
      remaining: 50,
      disabled: false,
      disabledComment: null,
      purchasable: false,
      blockReason: 'ended',
      blockMessage: null,
      course: null,
      interval: null,
      imageSrc: null,
      descriptionImage: null,
      descriptionComment: null,
      lotDisable: false,
      addressRequired: true,
      addressLabel: 'お届け先',
      deliveryMonth: '2027-03',
      supporters: 0,
    },
  ],
  paymentTypes: [1, 2],
  unavailablePaymentTypes: [],
  additionalData: null,
  fundingModel: 'all_in',
  closesAt: '2027-01-31T23:59:00+09:00',
  owner: null,
  faqs: [],
  related: [],
  result: null,
  ...overrides,
});

/** Answers the preview and the public lists the project page reads (none for a draft). */
const servePreview = (detail: PreviewProject | { status: number }) => {
  let calls = 0;
  server.use(
    http.get(apiUrl('/admin/projects/:id/preview'), () => {
      calls += 1;
      return 'status' in detail
        ? HttpResponse.json({ error: 'conflict', message: '公開中のプロジェクトはプレビューできません' }, { status: detail.status })
        : HttpResponse.json({ project: detail });
    }),
    http.get(apiUrl('/information/get/list'), () => HttpResponse.json({ resInformation: [] })),
    http.get(apiUrl('/comment/get/list'), () => HttpResponse.json({ comments: [], total: 0 })),
    http.get(apiUrl('/sponsors/get/list'), () =>
      HttpResponse.json({ manual: false, corporate: { size3: [], size2: [], size1: [] }, personal: [], courses: null }),
    ),
  );
  return () => calls;
};

describe('the preview of a draft (/admin/projects/:id/preview)', () => {
  it('draws the public project page from the preview, under a banner that leads back to editing', async () => {
    loginAs({ isAdmin: true });
    servePreview(draftDetail());
    serveProject(adminProject());
    const user = userEvent.setup();
    const { router } = renderApp('/admin/projects/12/preview');

    const banner = await screen.findByRole('complementary', { name: 'プレビュー中' });
    expect(within(banner).getByText('プレビュー：このページはまだ公開されていません')).toBeInTheDocument();
    // The public page itself: its title, its story, its returns.
    expect(await screen.findByRole('heading', { level: 1, name: '桐生織の工房を次の世代へ' })).toBeInTheDocument();
    expect(screen.getByText('織機', { selector: 'strong' })).toBeInTheDocument();
    const returns = screen.getByRole('region', { name: /リターン一覧/ });
    expect(within(returns).getByRole('article', { name: 'お礼のお手紙' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`プロジェクトのプレビュー | ${SITE}`));

    await user.click(within(banner).getByRole('link', { name: '編集に戻る' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'プロジェクトの編集' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/admin/projects/12/');
  });

  it('reads the preview again each time it is opened', async () => {
    loginAs({ isAdmin: true });
    const calls = servePreview(draftDetail());
    serveProject(adminProject());
    const user = userEvent.setup();
    renderApp('/admin/projects/12/preview');
    await screen.findByRole('heading', { level: 1, name: '桐生織の工房を次の世代へ' });

    await user.click(screen.getByRole('link', { name: '編集に戻る' }));
    await user.click(await screen.findByRole('link', { name: 'プレビュー' }));
    await screen.findByRole('heading', { level: 1, name: '桐生織の工房を次の世代へ' });
    await waitFor(() => expect(calls()).toBe(2));
  });

  it('shows the server’s reason when there is nothing to preview, with the way back', async () => {
    loginAs({ isAdmin: true });
    servePreview({ status: 409 });
    renderApp('/admin/projects/12/preview');

    expect(await screen.findByRole('alert')).toHaveTextContent('公開中のプロジェクトはプレビューできません');
    expect(screen.getByRole('link', { name: '編集に戻る' })).toHaveAttribute('href', '/admin/projects/12/');
  });
});
