import type { ApiErrorBody } from '@/lib/apiError';
import type {
  AdminProject,
  AdminReturn,
  FundingModel,
  ProjectInput,
  ProjectState,
  ReturnInput,
  ReturnTypeCode,
  TaxHandling,
} from './types';

/** The states in the order of a project's life, with the words the screens use. */
export const PROJECT_STATES: readonly { value: ProjectState; label: string }[] = [
  { value: 'draft', label: '下書き' },
  { value: 'scheduled', label: '公開予約' },
  { value: 'open', label: '募集中' },
  { value: 'ended', label: '終了' },
];

export const stateLabel = (state: ProjectState): string =>
  PROJECT_STATES.find((s) => s.value === state)?.label ?? state;

/** The `?state=` of the list, when it names a state. */
export const parseStateFilter = (raw: string | null): ProjectState | null =>
  PROJECT_STATES.find((s) => s.value === raw)?.value ?? null;

export const FUNDING_MODELS: readonly { value: FundingModel; label: string }[] = [
  { value: 'all_in', label: 'All-in（実施確約）' },
  { value: 'all_or_nothing', label: 'All-or-Nothing（目標達成時のみ実施）' },
];

export const TAX_HANDLINGS: readonly { value: TaxHandling; label: string }[] = [
  { value: 'inclusive', label: '税込' },
  { value: 'exclusive', label: '税別（税を加算）' },
  { value: 'donation', label: '寄附（非課税）' },
];

/** How a return's price reads under the project's tax handling. */
export const PRICE_TAX_NOTE: Record<TaxHandling, string> = {
  inclusive: '税込',
  exclusive: '税別',
  donation: '非課税',
};

export const RETURN_TYPES: readonly { value: ReturnTypeCode; label: string }[] = [
  { value: 0, label: '個人' },
  { value: 1, label: '企業' },
  { value: 2, label: '団体' },
];

export const returnTypeLabel = (type: number): string =>
  RETURN_TYPES.find((t) => t.value === type)?.label ?? String(type);

/** The screens' own words (the server's messages are shown as they come). */
export const PROJECT_MESSAGES = {
  empty: 'プロジェクトはまだありません。',
  emptyState: (label: string) => `「${label}」のプロジェクトはありません。`,
  saved: '保存しました。',
  locked: '公開後は変更できません',
  backedLocked: '支援があるため変更できません',
  backedNoDelete: '支援があるため削除できません。受付停止または非表示にできます。',
  noReturns: 'リターンはまだありません。',
  returnSaved: 'リターンを保存しました。',
  returnDeleted: 'リターンを削除しました。',
  returnsReordered: 'リターンの並び順を変更しました。',
  published: '公開しました。',
  scheduled: (when: string) => `${when}に公開を予約しました。`,
  unscheduled: '公開予約を取り消しました。下書きに戻りました。',
  publishAtRequired: '公開日時を入力してください',
  publishAtPast: '公開日時は現在より後の日時を入力してください',
  previewBanner: 'プレビュー：このページはまだ公開されていません',
  noComments: 'コメントはまだありません。',
  commentHidden: 'コメントを非表示にしました。',
  commentShown: 'コメントを再表示しました。',
  noSupporters: 'まだ支援者はいません。',
  supporterNameHidden: (name: string) => `${name}さんの名前を匿名にしました。`,
  supporterNameShown: (name: string) => `${name}さんの名前を再表示しました。`,
  receiptIssuerSaved: '領収書の発行者を保存しました。',
} as const;

/** The most the server keeps of a hiding reason (contract: 1-200 characters). */
export const HIDE_REASON_MAX = 200;
/** The owner's address: the server's bound (RFC 5321). */
export const OWNER_EMAIL_MAX = 254;

/** A one-line field (the hiding reason: the server refuses a line break): a break typed or pasted becomes a space. */
export const oneLine = (text: string): string => text.replace(/\r\n?|\n|\u2028|\u2029/g, ' ');

/** The form's values as typed: amounts and counts stay text until sent. */
export interface ProjectDraft {
  slug: string;
  title: string;
  lead: string;
  story: string;
  goal: string;
  periodEnd: string;
  fundingModel: FundingModel;
  taxHandling: TaxHandling;
  acceptsCard: boolean;
  acceptsBankTransfer: boolean;
  acceptsKonbini: boolean;
  /** The chosen area's id as the select holds it; '' = none. */
  areaId: string;
  /** The chosen category's id; '' = none. */
  categoryId: string;
  /** The owner's address for the result and payout mails; '' = none. */
  ownerEmail: string;
  /** A donation project's payout date (YYYY-MM-DD); '' = not set. Sent only for a donation project. */
  donationPayoutDate: string;
}

export const EMPTY_PROJECT_DRAFT: ProjectDraft = {
  slug: '',
  title: '',
  lead: '',
  story: '',
  goal: '',
  periodEnd: '',
  fundingModel: 'all_in',
  taxHandling: 'inclusive',
  acceptsCard: true,
  acceptsBankTransfer: true,
  acceptsKonbini: false,
  areaId: '',
  categoryId: '',
  ownerEmail: '',
  donationPayoutDate: '',
};

export const projectDraftOf = (project: AdminProject): ProjectDraft => ({
  slug: project.slug,
  title: project.title,
  lead: project.lead,
  story: project.story,
  goal: String(project.goal),
  periodEnd: project.periodEnd,
  fundingModel: project.fundingModel,
  taxHandling: project.taxHandling,
  acceptsCard: project.acceptsCard,
  acceptsBankTransfer: project.acceptsBankTransfer,
  acceptsKonbini: project.acceptsKonbini,
  areaId: project.areaId === null ? '' : String(project.areaId),
  categoryId: project.categoryId === null ? '' : String(project.categoryId),
  ownerEmail: project.ownerEmail ?? '',
  donationPayoutDate: project.donationPayoutDate ?? '',
});

/** The calendar day after `iso` (YYYY-MM-DD), as YYYY-MM-DD; '' for a value that is not a date. */
export const nextDay = (iso: string): string => {
  const day = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return '';
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
};

/** A select's value as an id ('' = none). */
const optionalId = (value: string): number | null => (value === '' ? null : Number(value));

/** A whole number typed in a field ('1,000' and full-width digits included); NaN when it is none. */
export const parseWhole = (raw: string): number => {
  const normalised = raw
    .replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
    .replace(/[,，\s]/g, '');
  return /^\d+$/.test(normalised) ? Number(normalised) : Number.NaN;
};

/**
 * The body the server checks. An amount that is not a number goes as 0, which the server refuses with its own
 * message ('目標金額は1円以上で入力してください').
 */
export const projectInputOf = (draft: ProjectDraft): ProjectInput => {
  const goal = parseWhole(draft.goal);
  return {
    slug: draft.slug.trim(),
    title: draft.title.trim(),
    lead: draft.lead.trim(),
    story: draft.story,
    goal: Number.isNaN(goal) ? 0 : goal,
    periodEnd: draft.periodEnd,
    fundingModel: draft.fundingModel,
    taxHandling: draft.taxHandling,
    acceptsCard: draft.acceptsCard,
    acceptsBankTransfer: draft.acceptsBankTransfer,
    acceptsKonbini: draft.acceptsKonbini,
    areaId: optionalId(draft.areaId),
    categoryId: optionalId(draft.categoryId),
    ownerEmail: draft.ownerEmail.trim() === '' ? null : draft.ownerEmail.trim(),
    donationPayoutDate:
      draft.taxHandling === 'donation' && draft.donationPayoutDate !== '' ? draft.donationPayoutDate : null,
  };
};

export interface ReturnDraft {
  title: string;
  description: string;
  price: string;
  /** One of `RETURN_TYPES` (a stored return keeps whatever code it has). */
  returnType: number;
  stockLimit: string;
  lotFixed: boolean;
  addressRequired: boolean;
  addressLabel: string;
  disabled: boolean;
  disabledComment: string;
  hidden: boolean;
  deliveryMonth: string;
  /** Charged every month (a monthly support) instead of once. */
  monthly: boolean;
  course: string;
  /** The one address the return is offered to; blank: everyone. */
  onlyFor: string;
}

export const EMPTY_RETURN_DRAFT: ReturnDraft = {
  title: '',
  description: '',
  price: '',
  returnType: 0,
  stockLimit: '',
  lotFixed: false,
  addressRequired: false,
  addressLabel: '',
  disabled: false,
  disabledComment: '',
  hidden: false,
  deliveryMonth: '',
  monthly: false,
  course: '',
  onlyFor: '',
};

export const returnDraftOf = (ret: AdminReturn): ReturnDraft => ({
  title: ret.title,
  description: ret.description,
  price: String(ret.price),
  returnType: ret.returnType,
  stockLimit: ret.stockLimit === null ? '' : String(ret.stockLimit),
  lotFixed: ret.lotFixed,
  addressRequired: ret.addressRequired,
  addressLabel: ret.addressLabel ?? '',
  disabled: ret.disabled,
  disabledComment: ret.disabledComment ?? '',
  hidden: ret.hidden,
  deliveryMonth: ret.deliveryMonth ?? '',
  monthly: ret.monthly,
  course: ret.course ?? '',
  onlyFor: ret.onlyFor ?? '',
});

const textOrNull = (raw: string): string | null => (raw.trim() === '' ? null : raw.trim());

/**
 * An empty stock is unlimited (null), as a monthly return always is; the label and the comment go only with their
 * box ticked.
 */
export const returnInputOf = (draft: ReturnDraft): ReturnInput => {
  const price = parseWhole(draft.price);
  const stock = parseWhole(draft.stockLimit);
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    price: Number.isNaN(price) ? 0 : price,
    returnType: draft.returnType,
    stockLimit: draft.monthly || draft.stockLimit.trim() === '' ? null : Number.isNaN(stock) ? 0 : stock,
    lotFixed: draft.lotFixed,
    addressRequired: draft.addressRequired,
    addressLabel: draft.addressRequired ? textOrNull(draft.addressLabel) : null,
    disabled: draft.disabled,
    disabledComment: draft.disabled ? textOrNull(draft.disabledComment) : null,
    hidden: draft.hidden,
    deliveryMonth: textOrNull(draft.deliveryMonth),
    monthly: draft.monthly,
    course: textOrNull(draft.course),
    onlyFor: textOrNull(draft.onlyFor),
  };
};

/** Server messages by the form field they belong to; `form` holds those that name none. */
export type FieldMessages<F extends string> = Partial<Record<F | 'form', string>>;

const camel = (field: string) => field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Sorts a refusal's message(s) to the fields of a form: `field` (or each of `errors`) names one of `fields`
 * (camelCase or snake_case), `aliases` maps other names onto them; anything else goes on top of the form.
 */
export const fieldMessagesOf = <F extends string>(
  body: ApiErrorBody | null,
  fields: readonly F[],
  fallback: string,
  aliases: Partial<Record<string, F>> = {},
): FieldMessages<F> => {
  const messages: FieldMessages<F> = {};
  const entries =
    body?.errors && body.errors.length > 0
      ? body.errors
      : [{ field: body?.field ?? '', message: body?.message ?? fallback }];
  for (const entry of entries) {
    const name = camel(entry.field ?? '');
    const field = (fields as readonly string[]).includes(name) ? (name as F) : aliases[name];
    const key = field ?? 'form';
    if (!messages[key]) messages[key] = entry.message || fallback;
  }
  return messages;
};

export const PROJECT_FIELDS = [
  'slug',
  'title',
  'lead',
  'story',
  'goal',
  'periodEnd',
  'fundingModel',
  'taxHandling',
  'payment',
  'areaId',
  'categoryId',
  'ownerEmail',
  'donationPayoutDate',
] as const;
export type ProjectField = (typeof PROJECT_FIELDS)[number];
/** Server field names that belong to the payment method boxes. */
export const PROJECT_FIELD_ALIASES: Partial<Record<string, ProjectField>> = {
  acceptsCard: 'payment',
  acceptsBankTransfer: 'payment',
  acceptsKonbini: 'payment',
  paymentMethods: 'payment',
  paymentTypes: 'payment',
};

export const RETURN_FIELDS = [
  'title',
  'description',
  'price',
  'returnType',
  'monthly',
  'stockLimit',
  'addressLabel',
  'disabledComment',
  'deliveryMonth',
  'course',
  'onlyFor',
] as const;
export type ReturnField = (typeof RETURN_FIELDS)[number];

/** The fields of the receipt issuer's form (`PUT /v1/admin/projects/{id}/receipt-issuer`). */
export const RECEIPT_ISSUER_FIELDS = ['issuerName', 'registrationNumber'] as const;
export type ReceiptIssuerField = (typeof RECEIPT_ISSUER_FIELDS)[number];

/** The one field of the hiding dialog (`POST /v1/admin/comments/{id}/hide`). */
export const HIDE_COMMENT_FIELDS = ['reason'] as const;
export type HideCommentField = (typeof HIDE_COMMENT_FIELDS)[number];

const TOKYO_OFFSET_MS = 9 * 60 * 60 * 1000;

/** Now in Tokyo as a `datetime-local` value (`YYYY-MM-DDTHH:mm`). */
export const tokyoNowLocal = (now: number = Date.now()): string =>
  new Date(now + TOKYO_OFFSET_MS).toISOString().slice(0, 16);

/** A `datetime-local` value read as Tokyo time, as the API's instant: `2026-12-01T10:00:00+09:00`. */
export const tokyoInstantOf = (local: string): string => `${local.length === 16 ? `${local}:00` : local}+09:00`;

/** Checks the publication time chosen in the dialog; null when it can be sent. */
export const publishAtError = (local: string, now: number = Date.now()): string | null => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(local)) return PROJECT_MESSAGES.publishAtRequired;
  return new Date(tokyoInstantOf(local)).getTime() > now ? null : PROJECT_MESSAGES.publishAtPast;
};

/** The order after moving the return at `index` one place up (-1) or down (+1). */
export const movedOrder = (ids: readonly number[], index: number, step: -1 | 1): number[] => {
  const target = index + step;
  if (index < 0 || index >= ids.length || target < 0 || target >= ids.length) return [...ids];
  const next = [...ids];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
};
