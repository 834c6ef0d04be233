import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '@/testing/server';
import type { Comment, NewsItem, ProjectCard, ProjectDetail, ProjectReturn, SponsorList } from '../api/types';

export const card = (overrides: Partial<ProjectCard> = {}): ProjectCard => ({
  id: 1,
  slug: 'maebashi-fes',
  title: '前橋の夏祭りを復活させたい',
  description: '商店街のみんなで夏祭りを開きます。',
  target: 1_000_000,
  period: '2026-12-31',
  urls: { main: '/media/demo/p1-main.svg' },
  isDonation: false,
  taxIncludes: true,
  hasAnonymousBank: false,
  daysLeft: 36,
  isOpen: true,
  sum: { amount: 123_000, lot: 42 },
  progress: { ring: 12.3, card: 12.3, capped: 12.3 },
  achieved: false,
  area: null,
  category: null,
  ...overrides,
});

export const ret = (overrides: Partial<ProjectReturn> = {}): ProjectReturn => ({
  id: 3,
  slug: 'course-a',
  type: 0,
  title: 'お礼のお手紙コース',
  description: '感謝の気持ちを込めたお手紙をお送りします。',
  price: 3300,
  tax: 300,
  total: 3300,
  taxLabel: '税込',
  limit: 50,
  remaining: 12,
  disabled: false,
  disabledComment: null,
  purchasable: true,
  blockReason: null,
  blockMessage: null,
  course: null,
  interval: null,
  imageSrc: '/media/demo/r3.svg',
  descriptionImage: null,
  descriptionComment: null,
  lotDisable: false,
  addressRequired: false,
  addressLabel: null,
  deliveryMonth: null,
  supporters: 0,
  ...overrides,
});

export const detail = (overrides: Partial<ProjectDetail> = {}): ProjectDetail => ({
  ...card(),
  progress: { ring: 12.34, card: 12.3, capped: 12.34 },
  content: '<p>私たちの<strong>夏祭り</strong>の話です。</p>',
  slider: [],
  honorImgUrl: null,
  ImgUrlLink: null,
  anonymousBank: null,
  settings: { usesManualSponsors: false, hideFooterSponsors: false },
  returns: [ret()],
  paymentTypes: [1, 2],
  unavailablePaymentTypes: [],
  additionalData: null,
  fundingModel: 'all_in',
  closesAt: '2026-12-31T23:59:00+09:00',
  owner: null,
  faqs: [],
  related: [],
  result: null,
  ...overrides,
});

export const news = (overrides: Partial<NewsItem> = {}): NewsItem => ({
  id: 1,
  title: '準備が始まりました',
  description: '櫓の組み立てを始めました。',
  updated_at: '2026-11-20T10:00:00+09:00',
  audience: 'public',
  locked: false,
  ...overrides,
});

export const comment = (overrides: Partial<Comment> = {}): Comment => ({
  id: 5,
  project_id: 1,
  user_id: 7,
  comment: '応援しています！',
  updated_at: '2026-11-21T09:30:00+09:00',
  userDetail: { id: 7, displayname: '山田 太郎', urls: { icon: [] } },
  salesDetail: { displayname: { displayname: '山田 太郎' } },
  ...overrides,
});

export const emptySponsors = (): SponsorList => ({
  manual: false,
  corporate: { size3: [], size2: [], size1: [] },
  personal: [],
  courses: null,
});

export interface ProjectMocks {
  project?: ProjectDetail;
  news?: NewsItem[];
  comments?: Comment[];
  sponsors?: SponsorList;
}

/** Answers every call a project page makes, for one project. */
export const mockProjectPage = ({ project = detail(), news: items = [news()], comments = [comment()], sponsors = emptySponsors() }: ProjectMocks = {}) => {
  server.use(
    http.get(apiUrl('/project/get/detail'), ({ request }) => {
      const slug = new URL(request.url).searchParams.get('slug');
      if (slug !== project.slug) return HttpResponse.json({ error: 'not_found', message: 'プロジェクトが見つかりません。' }, { status: 404 });
      return HttpResponse.json({ project });
    }),
    http.get(apiUrl('/information/get/list'), () => HttpResponse.json({ resInformation: items })),
    http.get(apiUrl('/comment/get/list'), () => HttpResponse.json({ comments, total: comments.length })),
    http.get(apiUrl('/sponsors/get/list'), () => HttpResponse.json(sponsors)),
  );
};

export const mockHome = (projects: ProjectCard[], total = { amount: 1_234_000, lot: 56 }) => {
  server.use(
    http.get(apiUrl('/helper/get/master'), () =>
      HttpResponse.json({ master: { projects, env: { name: 'local', flag: false } } }),
    ),
    http.get(apiUrl('/sales/get/allSum'), () => HttpResponse.json({ result: total })),
  );
};

/** A stored token and a login check that answers for `userId`. */
export const logInAs = (userId: number) => {
  window.localStorage.setItem('jwt', JSON.stringify({ type: 'Bearer', token: 't' }));
  server.use(http.get(apiUrl('/user/loginCheck'), () => HttpResponse.json({ data: { flag: 1, userId, isAdmin: false } })));
};
