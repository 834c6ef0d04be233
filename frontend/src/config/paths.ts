import type { Schemas } from '@/lib/apiTypes';

/**
 * Every route of both specifications, in one place.
 * `path` is the router pattern; `getHref` builds a link with its parameters encoded.
 */
const seg = (value: string | number): string => encodeURIComponent(String(value));

const withQuery = (base: string, query: Record<string, string | number | undefined>): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${base}?${search}` : base;
};

type PaymentStep = 'info' | 'method' | 'card' | 'bank' | 'confirm' | 'complete';

const paymentStep = <S extends PaymentStep>(step: S) =>
  ({
    path: `/payment/${step}/:project/:return/`,
    getHref: (project: string, ret: string): string => `/payment/${step}/${seg(project)}/${seg(ret)}/`,
  }) as const;

/** Payment types of the specs: 1 card, 2 bank transfer. */
export type PaymentType = Schemas['PaymentTypeCode'];

/** The project list's filters as its address carries them (`/projects/?area=maebashi&sort=ending`). */
export interface ProjectListFilters {
  area?: string;
  category?: string;
  state?: 'open' | 'ended';
  sort?: 'new' | 'raised' | 'backers' | 'ending';
  q?: string;
  page?: number;
}

export const paths = {
  home: { path: '/', getHref: () => '/' },
  // Ours (issue #23): every public project, filtered, searched and sorted; the filters live in the address.
  projects: {
    path: '/projects/',
    getHref: (filters: ProjectListFilters = {}) =>
      withQuery('/projects/', {
        area: filters.area || undefined,
        category: filters.category || undefined,
        state: filters.state,
        sort: filters.sort && filters.sort !== 'new' ? filters.sort : undefined,
        q: filters.q?.trim() || undefined,
        page: filters.page && filters.page > 1 ? filters.page : undefined,
      }),
  },
  project: {
    path: '/projects/:slug/',
    getHref: (slug: string, hash?: string) => `/projects/${seg(slug)}/${hash ? `#${hash}` : ''}`,
  },
  policy: { path: '/policy/', getHref: () => '/policy/' },
  terms: { path: '/terms/', getHref: () => '/terms/' },
  commercial: { path: '/commercial/', getHref: () => '/commercial/' },

  login: {
    path: '/login/',
    getHref: (query: { expired?: 1; isRegist?: 1; isResetPass?: 1 } = {}) => withQuery('/login/', query),
  },
  signup: { path: '/signup/', getHref: () => '/signup/' },
  signupPassword: {
    path: '/signup/password/',
    getHref: (activate?: string) => withQuery('/signup/password/', { activate }),
  },
  forgotPassword: { path: '/forgot-password/', getHref: () => '/forgot-password/' },
  resetPassword: {
    path: '/reset-password/',
    getHref: (secret?: string) => withQuery('/reset-password/', { secret }),
  },
  account: { path: '/account/', getHref: () => '/account/' },

  editProfile: { path: '/edit/profile', getHref: () => '/edit/profile' },
  editEmail: { path: '/edit/email', getHref: () => '/edit/email' },
  editEmailUpdated: {
    path: '/edit/email/updated',
    getHref: (activate?: string) => withQuery('/edit/email/updated', { activate }),
  },
  editPassword: { path: '/edit/password', getHref: () => '/edit/password' },
  editCorporate: { path: '/edit/corporate', getHref: () => '/edit/corporate' },
  editAddresses: { path: '/edit/addresses', getHref: () => '/edit/addresses' },
  editPayment: { path: '/edit/payment', getHref: () => '/edit/payment' },
  editPaymentList: { path: '/edit/payment-list', getHref: () => '/edit/payment-list' },
  // Ours: a paid sale's receipt (領収書), a member's from the payment history, anyone's from the paid mail's link.
  accountReceipt: {
    path: '/account/receipts/:saleId',
    getHref: (saleId: number | string) => `/account/receipts/${seg(saleId)}`,
  },
  receipt: { path: '/receipt/:token', getHref: (token: string) => `/receipt/${seg(token)}` },
  // Ours: a monthly support's month that waits for 3-D Secure (the mail about it links here).
  monthlyAuthentication: {
    path: '/account/monthly/:id/authenticate',
    getHref: (id: number | string) => `/account/monthly/${seg(id)}/authenticate`,
  },

  paymentInfo: paymentStep('info'),
  paymentMethod: paymentStep('method'),
  paymentCard: paymentStep('card'),
  paymentBank: paymentStep('bank'),
  paymentConfirm: {
    path: '/payment/confirm/:project/:return/',
    getHref: (project: string, ret: string, paymentType: PaymentType) =>
      withQuery(`/payment/confirm/${seg(project)}/${seg(ret)}/`, { paymentType }),
  },
  paymentComplete: paymentStep('complete'),

  admin: { path: '/admin/', getHref: () => '/admin/' },
  adminResendRegisterMail: { path: '/admin/resendRegisterMail/', getHref: () => '/admin/resendRegisterMail/' },
  adminMail: { path: '/admin/mail/', getHref: () => '/admin/mail/' },
  adminMailRegister: { path: '/admin/mail/register/', getHref: () => '/admin/mail/register/' },
  adminMailDetail: { path: '/admin/mail/:id/', getHref: (id: number | string) => `/admin/mail/${seg(id)}/` },
  adminRefund: { path: '/admin/refund/', getHref: () => '/admin/refund/' },
  adminRefundDetail: { path: '/admin/refund/:slug', getHref: (slug: string) => `/admin/refund/${seg(slug)}` },
  // Ours: the operator's project screens (list filtered by `?state=`, creation, editing, preview of a draft).
  adminProjects: {
    path: '/admin/projects/',
    getHref: (state?: 'draft' | 'scheduled' | 'open' | 'ended') => withQuery('/admin/projects/', { state }),
  },
  adminProjectNew: { path: '/admin/projects/new', getHref: () => '/admin/projects/new' },
  adminProjectEdit: { path: '/admin/projects/:id/', getHref: (id: number | string) => `/admin/projects/${seg(id)}/` },
  adminProjectPreview: {
    path: '/admin/projects/:id/preview',
    getHref: (id: number | string) => `/admin/projects/${seg(id)}/preview`,
  },
  // Ours: who must receive which return, its CSV, and the delivery state per sale.
  adminProjectDeliveries: {
    path: '/admin/projects/:id/deliveries',
    getHref: (id: number | string) => `/admin/projects/${seg(id)}/deliveries`,
  },
  // Ours: payouts to the owners of successful projects (the list, and one project's printable statement).
  adminPayouts: { path: '/admin/payouts/', getHref: () => '/admin/payouts/' },
  adminPayoutStatement: { path: '/admin/payouts/:id/', getHref: (id: number | string) => `/admin/payouts/${seg(id)}/` },

  mailOptOut: { path: '/mail/optout/', getHref: (token: string) => withQuery('/mail/optout/', { token }) },
} as const;

export type PathKey = keyof typeof paths;

/** Path keywords that need a logged-in user (spec 000 §5, 001 §6). */
export const PROTECTED_PATH_KEYWORDS = ['member', 'admin', 'account', 'edit'] as const;

export const isProtectedPath = (pathname: string): boolean =>
  PROTECTED_PATH_KEYWORDS.some((keyword) => pathname.split('/').includes(keyword));
