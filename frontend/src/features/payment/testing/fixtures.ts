import { delay, http, HttpResponse, type JsonBodyType } from 'msw';
import { vi } from 'vitest';
import { FK_STORAGE_KEY } from '@/lib/storage';
import { apiUrl, server } from '@/testing/server';
import type { Subscription } from '@/app/session/subscriptionsApi';
import type { Card, PaymentProject, PaymentReturn, SupportResult } from '../api/types';
import type { SupportRecord } from '../supportRecord';

export const PROJECT = 'maebashi-fes';
export const RETURN = 'course-a';

export const paymentReturn = (overrides: Partial<PaymentReturn> = {}): PaymentReturn => ({
  id: 3,
  slug: RETURN,
  type: 0,
  title: 'お礼のお手紙コース',
  description: '感謝の気持ちを込めたお手紙をお送りします。',
  price: 3000,
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
  imageSrc: null,
  descriptionImage: null,
  descriptionComment: null,
  lotDisable: false,
  addressRequired: false,
  addressLabel: null,
  deliveryMonth: null,
  supporters: 0,
  ...overrides,
});

export const paymentProject = (overrides: Partial<PaymentProject> = {}): PaymentProject => ({
  id: 1,
  slug: PROJECT,
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
  content: '<p>本文</p>',
  slider: [],
  honorImgUrl: null,
  ImgUrlLink: null,
  anonymousBank: null,
  settings: { usesManualSponsors: false, hideFooterSponsors: false },
  returns: [paymentReturn()],
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

export const serveProject = (project: PaymentProject = paymentProject()): void => {
  server.use(http.get(apiUrl('/project/get/detail'), () => HttpResponse.json({ project })));
};

/** The support record as the support start (and step 1, when `lot` is given) leaves it. */
export const storeRecord = (record: SupportRecord): void => {
  window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify(record));
};

export const readRecord = (): SupportRecord =>
  JSON.parse(window.localStorage.getItem(FK_STORAGE_KEY) ?? '{}') as SupportRecord;

/** Step 1 done as a guest for the default return. */
export const guestAfterStep1 = (overrides: SupportRecord = {}): void =>
  storeRecord({
    supportType: 'guest',
    returnKey: `${PROJECT}/${RETURN}`,
    lot: 2,
    displayname: '上州太郎',
    anonymous: false,
    agreeTerms: true,
    notAntisocial: true,
    guestEmail: 'guest@example.jp',
    ...overrides,
  });

export const card = (overrides: Partial<Card> = {}): Card => ({
  id: 'card_visa',
  brand: 'Visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2030,
  ...overrides,
});

/** A member's running monthly support, paid by the Visa card of `card()`. `stoppable` follows the status as the
 * server sets it, unless given. */
export const subscription = (overrides: Partial<Subscription> = {}): Subscription => ({
  stoppable: overrides.status === undefined || overrides.status === 'active' || overrides.status === 'past_due',
  id: 12,
  projectTitle: '前橋の夏祭りを復活させたい',
  projectSlug: 'maebashi-fes',
  returnTitle: 'サポーターズクラブ',
  amount: 1100,
  status: 'active',
  nextChargeDate: '2026-12-26',
  endsOn: null,
  cardId: 'card_visa',
  cardBrand: 'Visa',
  cardLast4: '4242',
  ...overrides,
});

export const serveCards = (cards: Card[], defaultId: string | null = cards[0]?.id ?? null): void => {
  server.use(
    http.get(apiUrl('/stripe/customer/get/cards'), () => HttpResponse.json({ data: { cards, default: defaultId } })),
  );
};

export const serveQuote = (): void => {
  server.use(
    http.get(apiUrl('/payment/get/quote'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      // As the server: every parameter is required.
      if (!['projectId', 'returnId', 'lot'].every((name) => params.has(name))) {
        return HttpResponse.json(
          { error: 'malformed_request', message: 'リクエストの形式が正しくありません。' },
          { status: 400 },
        );
      }
      const lot = Number(params.get('lot'));
      // The server adds an extra amount on top, untaxed.
      const extraAmount = Number(params.get('extraAmount') ?? 0);
      return HttpResponse.json({
        price: 3000,
        lot,
        amount: 3000 * lot,
        tax: 300 * lot,
        extraAmount,
        total: 3300 * lot + extraAmount,
        taxLabel: '税別',
        taxRate: 10,
      });
    }),
  );
};

export const serveLibrary = (): void => {
  server.use(
    http.get(apiUrl('/helper/get/master'), () =>
      HttpResponse.json({
        master: {
          projects: [],
          env: { name: 'local', flag: false },
          payment: { publishableKey: 'pk_test_local', jsUrl: 'http://127.0.0.1:8420/js.stripe.com/v3/' },
        },
      }),
    ),
  );
};

export const supportResult = (overrides: Partial<SupportResult> = {}, sale: Partial<SupportResult['sale']> = {}): SupportResult => ({
  sale: {
    id: 41,
    status: 'succeeded',
    statusLabel: '支払い済み',
    paymentType: 1,
    price: 3000,
    lot: 2,
    amount: 6000,
    tax: 600,
    extraAmount: 0,
    total: 6600,
    taxLabel: '税別',
    createdAt: '2026-11-26T10:00:00+09:00',
    projectTitle: '前橋の夏祭りを復活させたい',
    projectSlug: PROJECT,
    returnTitle: 'お礼のお手紙コース',
    displayname: '上州太郎',
    ...sale,
  },
  receipt: 'rcpt_41',
  nextAction: null,
  bankTransfer: null,
  konbini: null,
  ...overrides,
});

/** A konbini voucher as the server sends it (Sunday 2026-11-29, 23:59:59 Tokyo). */
export const konbiniVoucher = {
  expiresAt: '2026-11-29T23:59:59+09:00',
  expiresAtText: '2026年11月29日（日）23:59',
  hostedVoucherUrl: 'https://payments.stripe.com/konbini/voucher/test_pi_1',
  stores: [
    { chain: 'familymart', chainName: 'ファミリーマート', paymentCode: '123456789012', confirmationNumber: '09012345678' },
    { chain: 'lawson', chainName: 'ローソン', paymentCode: '223456789012', confirmationNumber: '09012345678' },
    { chain: 'ministop', chainName: 'ミニストップ', paymentCode: '323456789012', confirmationNumber: '09012345678' },
    { chain: 'seicomart', chainName: 'セイコーマート', paymentCode: '423456789012', confirmationNumber: null },
  ],
};

export const bankTransfer = {
  amountRemaining: 6600,
  reference: 'ABCD1234',
  bankName: 'ローカル銀行',
  branchName: 'テスト支店',
  accountType: 'futsu',
  accountTypeLabel: '普通',
  accountNumber: '1234567',
  accountHolderName: 'ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ',
  deadline: '2026-12-01',
  deadlineText: 'お申込日の翌日から3営業日以内（土日・祝日・年末年始を除く）',
};

/**
 * Answers `POST /v1/payment/set/support` with each reply in turn (the last one repeats), after a short wait so a
 * second click lands while the first call runs; records the bodies.
 */
export const answerSupport = (...replies: Array<{ status: number; body: JsonBodyType }>) => {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post(apiUrl('/payment/set/support'), async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      await delay(100);
      const reply = replies[Math.min(bodies.length - 1, replies.length - 1)]!;
      return HttpResponse.json(reply.body, { status: reply.status });
    }),
  );
  return bodies;
};

type StatusReply = { status: number; body: JsonBodyType };

const isStatusReply = (reply: JsonBodyType | StatusReply): reply is StatusReply =>
  typeof reply === 'object' && reply !== null && !Array.isArray(reply) && 'status' in reply && 'body' in reply;

/** The client secret of the card set-up the server starts in the tests. */
export const SETUP_SECRET = 'seti_1_secret_a';

/** What Stripe.js's `confirmCardSetup` answers for a card it set up as the PaymentMethod `paymentMethod`. */
export const setUpIntent = (paymentMethod: string) => ({
  setupIntent: { id: 'seti_1', status: 'succeeded', payment_method: paymentMethod },
});

/**
 * Answers `POST /v1/stripe/set/cardSetup` (a call without a body) with `reply`, the set-up's client secret unless
 * given (a JSON body, or `{ status, body }` for an error); records the body of each call as text, so a test can tell
 * how often a set-up was started and that no card details came with it.
 */
export const answerCardSetup = (
  reply: JsonBodyType | StatusReply = { clientSecret: SETUP_SECRET },
): string[] => {
  const bodies: string[] = [];
  server.use(
    http.post(apiUrl('/stripe/set/cardSetup'), async ({ request }) => {
      bodies.push(await request.text());
      return isStatusReply(reply) ? HttpResponse.json(reply.body, { status: reply.status }) : HttpResponse.json(reply);
    }),
  );
  return bodies;
};

/**
 * Answers `POST /v1/stripe/get/cardSetup` with the card a confirmed set-up made (or `{ status, body }` for an
 * error); records the client secret of each call.
 */
export const serveSetUpCard = (reply: Card | StatusReply): Array<string | null> => {
  const secrets: Array<string | null> = [];
  server.use(
    http.post(apiUrl('/stripe/get/cardSetup'), async ({ request }) => {
      secrets.push(((await request.json()) as { clientSecret?: string }).clientSecret ?? null);
      return 'status' in reply ? HttpResponse.json(reply.body, { status: reply.status }) : HttpResponse.json({ card: reply });
    }),
  );
  return secrets;
};

/**
 * A stand-in for Stripe.js on `window.Stripe`: one card element whose `change` the test fires, and spies for the
 * calls the flow makes. One instance per test file (Stripe.js is loaded once per page); reset between tests.
 */
export const fakeStripe = () => {
  const listeners: Record<string, (event?: unknown) => void> = {};
  const element: { value?: { card: Record<string, string> } } & Record<string, unknown> = {
    mount: vi.fn((node: HTMLElement) => {
      const input = document.createElement('input');
      input.setAttribute('aria-label', 'カード番号');
      node.appendChild(input);
    }),
    on: vi.fn((event: string, handler: (event?: unknown) => void) => {
      listeners[event] = handler;
    }),
    destroy: vi.fn(),
  };
  const stripe = {
    elements: vi.fn(() => ({ create: vi.fn(() => element) })),
    confirmCardSetup: vi.fn(),
    // Not called by the site any more, but React Stripe.js takes an object as Stripe.js only when it has
    // `elements`, `createToken`, `createPaymentMethod` and `confirmCardPayment`.
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardPayment: vi.fn(),
  };
  (window as unknown as { Stripe: unknown }).Stripe = vi.fn(() => stripe);
  return {
    stripe,
    /** The card element the form mounted (what `confirmCardSetup` is given as the card). */
    element,
    /** What the card field reports when typed into (Stripe.js describes the input in the event). */
    change: (event?: unknown) => listeners.change?.(event),
    /**
     * Typing as into localstripe's fake Stripe.js: the element keeps the values (the year prefixed with '20') and
     * sends `change` with no description.
     */
    type: (card: { number: string; expMonth?: string; expYear?: string; cvc?: string }) => {
      element.value = {
        card: { number: card.number, exp_month: card.expMonth ?? '12', exp_year: `20${card.expYear ?? '34'}`, cvc: card.cvc ?? '123' },
      };
      listeners.change?.();
    },
  };
};
