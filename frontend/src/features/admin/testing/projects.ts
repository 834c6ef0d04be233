import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '@/testing/server';
import type { ManualSponsor, ManualSponsors, ProjectContent, ProjectSettings } from '../content/types';
import type {
  AdminComment,
  AdminNews,
  AdminProject,
  AdminProjectSummary,
  AdminReturn,
  AdminSupporter,
  ReceiptIssuerSettings,
} from '../projects/types';

export const summary = (overrides: Partial<AdminProjectSummary> = {}): AdminProjectSummary => ({
  id: 1,
  slug: 'maebashi-fes',
  title: '前橋の夏祭りを復活させたい',
  state: 'open',
  publishAt: '2026-11-01T10:00:00+09:00',
  periodEnd: '2026-12-31',
  goal: 1_000_000,
  raised: 123_000,
  backers: 42,
  returns: 3,
  attention: [],
  ...overrides,
});

export const adminReturn = (overrides: Partial<AdminReturn> = {}): AdminReturn => ({
  id: 31,
  slug: 'letter',
  position: 1,
  title: 'お礼のお手紙',
  description: '感謝のお手紙を郵送でお届けします。',
  price: 3_000,
  returnType: 0,
  stockLimit: 50,
  lotsTaken: 12,
  lotFixed: false,
  addressRequired: true,
  addressLabel: 'お届け先',
  disabled: false,
  disabledComment: null,
  hidden: false,
  deliveryMonth: '2027-03',
  monthly: false,
  course: null,
  onlyFor: null,
  backed: false,
  ...overrides,
});

export const adminProject = (overrides: Partial<AdminProject> = {}): AdminProject => ({
  id: 12,
  slug: 'kiryu-textile',
  title: '桐生織の工房を次の世代へ',
  lead: '百年続く工房の織機を直します。',
  story: '<p>工房の話です。</p>',
  goal: 2_000_000,
  periodEnd: '2027-01-31',
  fundingModel: 'all_in',
  taxHandling: 'inclusive',
  acceptsCard: true,
  acceptsBankTransfer: true,
  acceptsKonbini: false,
  areaId: null,
  categoryId: null,
  ownerEmail: null,
  donationPayoutDate: null,
  state: 'draft',
  publishAt: null,
  raised: 0,
  backers: 0,
  locked: { goal: false, fundingModel: false, taxHandling: false },
  endExtensionsLeft: 2,
  returns: [],
  publicUrl: '/projects/kiryu-textile/',
  ...overrides,
});

/** A published project as the server answers it: the four fields locked. */
export const publishedProject = (overrides: Partial<AdminProject> = {}): AdminProject =>
  adminProject({
    state: 'open',
    publishAt: '2026-11-01T10:00:00+09:00',
    raised: 36_000,
    backers: 12,
    locked: { goal: true, fundingModel: true, taxHandling: true },
    ...overrides,
  });

export const adminComment = (overrides: Partial<AdminComment> = {}): AdminComment => ({
  id: 501,
  author: '山田太郎',
  authorEmail: 'taro@example.jp',
  comment: '応援しています！',
  shown: true,
  hiddenReason: null,
  createdAt: '2026-11-20T09:05:00+09:00',
  updatedAt: '2026-11-20T09:05:00+09:00',
  ...overrides,
});

/** Answers `GET /v1/admin/projects/{id}/comments` with `comments` (the server's list: newest first). */
export const serveComments = (comments: AdminComment[]) => {
  server.use(http.get(apiUrl('/admin/projects/:id/comments'), () => HttpResponse.json({ comments })));
};

export const adminSupporter = (overrides: Partial<AdminSupporter> = {}): AdminSupporter => ({
  userId: 31,
  email: 'gunma@example.jp',
  name: 'ぐんまちゃん推し',
  askedAnonymous: false,
  amount: 5500,
  hiddenReason: null,
  hiddenAt: null,
  ...overrides,
});

/** Answers `GET /v1/admin/projects/{id}/supporters` with `supporters` (the server's list: largest amount first). */
export const serveSupporters = (supporters: AdminSupporter[]) => {
  server.use(http.get(apiUrl('/admin/projects/:id/supporters'), () => HttpResponse.json({ supporters })));
};

/** Answers `GET /v1/admin/projects/{id}/news` with `news` (newest first). */
export const serveNews = (news: AdminNews[]) => {
  server.use(http.get(apiUrl('/admin/projects/:id/news'), () => HttpResponse.json({ news })));
};

export const adminNews = (overrides: Partial<AdminNews> = {}): AdminNews => ({
  id: 81,
  projectId: 12,
  title: '櫓の組み立てを始めました',
  body: '<p>週末に作業しました。</p>',
  audience: 'public',
  returnIds: [],
  state: 'published',
  publishedAt: '2026-11-20T10:00:00+09:00',
  mailSupporters: false,
  mailQueuedAt: null,
  mailId: null,
  updatedAt: '2026-11-20T10:00:00+09:00',
  ...overrides,
});

/** Answers `GET /v1/admin/projects/{id}/receipt-issuer` with `issuer` (by default: none set). */
export const serveReceiptIssuer = (issuer: Partial<ReceiptIssuerSettings> = {}) => {
  server.use(
    http.get(apiUrl('/admin/projects/:id/receipt-issuer'), ({ params }) =>
      HttpResponse.json({
        projectId: Number(params.id),
        projectTitle: '前橋の夏祭りを復活させたい',
        issuerName: null,
        registrationNumber: null,
        updatedAt: null,
        ...issuer,
      } satisfies ReceiptIssuerSettings),
    ),
  );
};

/**
 * Answers `GET /v1/admin/projects/{id}` with `project` (404 for any other id), and its comments, supporters and
 * receipt issuer with none (the edit page shows them; `serveComments`, `serveSupporters` or `serveReceiptIssuer`
 * afterwards to give some).
 * Answers `GET /v1/admin/projects/{id}` with `project` (404 for any other id), and its comments, news and receipt
 * issuer with none (the edit page shows them; `serveComments`, `serveNews` or `serveReceiptIssuer` afterwards).
 */
export const serveProject = (project: AdminProject) => {
  server.use(
    http.get(apiUrl('/admin/projects/:id'), ({ params }) =>
      Number(params.id) === project.id
        ? HttpResponse.json(project)
        : HttpResponse.json({ error: 'not_found', message: 'プロジェクトが見つかりません' }, { status: 404 }),
    ),
  );
  serveComments([]);
  serveSupporters([]);
  serveNews([]);
  serveReceiptIssuer();
  serveContent();
  serveSettings();
  serveManualSponsors();
};

export const manualSponsor = (overrides: Partial<ManualSponsor> = {}): ManualSponsor => ({
  id: 701,
  course: 'A',
  name: '上毛電機株式会社',
  logoSrc: '/media/projects/12/sponsors/jomo.png',
  link: 'https://jomo-denki.example.jp',
  amount: null,
  latestDate: null,
  canMoveUp: false,
  canMoveDown: false,
  ...overrides,
});

/** A project's manual sponsor list as the server answers it (the switch on, no entries by default). */
export const manualSponsors = (overrides: Partial<ManualSponsors> = {}): ManualSponsors => ({
  projectId: 12,
  projectTitle: '桐生織の工房を次の世代へ',
  slug: 'kiryu-textile',
  usesManualSponsors: true,
  entries: [],
  limits: { maxEntries: 200, maxUploadBytes: 2097152, logoEdge: 800 },
  ...overrides,
});

/** Answers `GET /v1/admin/projects/{id}/manual-sponsors` with `list` (an empty list by default). */
export const serveManualSponsors = (list: Partial<ManualSponsors> = {}) => {
  server.use(
    http.get(apiUrl('/admin/projects/:id/manual-sponsors'), ({ params }) =>
      HttpResponse.json(manualSponsors({ projectId: Number(params.id), ...list })),
    ),
  );
};

/** Answers `GET /v1/admin/projects/{id}/settings` with `settings` over nothing set. */
export const serveSettings = (settings: Partial<ProjectSettings> = {}) => {
  server.use(
    http.get(apiUrl('/admin/projects/:id/settings'), ({ params }) =>
      HttpResponse.json({
        projectId: Number(params.id),
        projectTitle: '前橋の夏祭りを復活させたい',
        additional: null,
        bank: null,
        connectedAccountId: null,
        feeSchedule: 'standard',
        connectedAccountLocked: false,
        usesManualSponsors: false,
        hideFooterSponsors: false,
        ...settings,
      } satisfies ProjectSettings),
    ),
  );
};

/** A project's page content as `GET /v1/admin/projects/{id}/content` answers it: nothing set yet. */
export const emptyContent = (id = 12): ProjectContent => ({
  id,
  slug: 'maebashi-matsuri',
  title: '前橋の夏祭りを復活させたい',
  mainImageUrl: null,
  honorImgUrl: null,
  honorImgLink: null,
  slider: [],
  owner: null,
  faqs: [],
  returns: [],
  limits: {
    maxSliderImages: 10,
    maxOwnerLinks: 5,
    maxFaqs: 20,
    maxUploadBytes: 2097152,
    projectImageEdge: 1600,
    ownerImageSide: 400,
  },
});

/** Answers `GET /v1/admin/projects/{id}/content` with `content` (the empty content of the asked project by default). */
export const serveContent = (content?: ProjectContent) => {
  server.use(
    http.get(apiUrl('/admin/projects/:id/content'), ({ params }) =>
      HttpResponse.json(content ?? emptyContent(Number(params.id))),
    ),
  );
};

/**
 * Answers `POST /v1/admin/comments/{id}/{action}` (`hide` or `show`) with `reply` and records, for each request,
 * the comment's id and the body it received (null when empty).
 */
export const answerCommentPost = <B = Record<string, unknown>>(
  action: 'hide' | 'show',
  reply: AdminComment | { status: number; body: Record<string, unknown> },
): { id: number; body: B | null }[] => {
  const requests: { id: number; body: B | null }[] = [];
  server.use(
    http.post(apiUrl(`/admin/comments/:id/${action}`), async ({ request, params }) => {
      const text = await request.text();
      requests.push({ id: Number(params.id), body: (text ? JSON.parse(text) : null) as B | null });
      return 'status' in reply && 'body' in reply
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return requests;
};

/** Answers `POST /v1/admin/projects/{id}{path}` with `reply` and records the bodies it received. */
export const answerProjectPost = <B = Record<string, unknown>>(
  path: string,
  reply: AdminProject | { status: number; body: Record<string, unknown> },
): B[] => {
  const bodies: B[] = [];
  server.use(
    http.post(apiUrl(`/admin/projects/:id${path}`), async ({ request }) => {
      const text = await request.text();
      bodies.push((text ? JSON.parse(text) : null) as B);
      return 'status' in reply && 'body' in reply
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return bodies;
};
