import type { Schemas } from '@/lib/apiTypes';

/*
 * The backing flow's bodies as /work/contract-support.md (issue #9) states them. The server's OpenAPI description
 * does not have these endpoints yet; once it does, each type here becomes an alias of the generated one
 * (`Schemas['...']`) and the typecheck shows any difference.
 */

/** Payment types of the specs: 1 card, 2 bank transfer. */
export type PaymentTypeCode = 1 | 2;

/** The project's question to supporters (`additionalData`): label, explanation, placeholder, its own alert. */
export interface AdditionalDataField {
  label: string;
  text: string | null;
  description: string | null;
  alert: string | null;
  /** Lines of the input; 1 (or null) is a one-line input. */
  formLine: number | null;
}

/** A return as the flow needs it: the catalog's fields plus the delivery address label (null: no address). */
export type PaymentReturn = Schemas['ReturnDto'] & { addressLabel: string | null };

/** `GET /v1/project/get/detail?slug=` with the fields the backing flow adds. */
export type PaymentProject = Omit<Schemas['ProjectDetailDto'], 'returns'> & {
  returns: PaymentReturn[];
  /** The methods the project accepts (subset of [1, 2]); step 2 offers only these. */
  paymentTypes: PaymentTypeCode[];
  additionalData: AdditionalDataField | null;
};

/** `GET /v1/user/get/authUser`. */
export type Member = Schemas['UserDto'];
export type SavedAddress = Schemas['AddressDto'];
export type AddressInput = Omit<SavedAddress, 'id'>;

/** `POST /v1/user/register` with `isGuest`. */
export interface GuestRegisterRequest {
  email: string;
  isGuest: true;
}
export interface GuestRegisterResponse {
  userFlag: number;
  exists: boolean;
}

/** A saved card of the member. */
export interface Card {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** `GET /v1/stripe/customer/get/cards`. */
export interface CardsResponse {
  data: { cards: Card[]; default: string | null };
}

/** `POST /v1/stripe/customer/set/updater`. */
export interface RegisterCardRequest {
  source: string;
  isCardRegist: true;
}
/** The new card and all the member's cards with the default, as the server describes it. */
export type RegisterCardResponse = Schemas['RegisteredCardResponse'];

/** `POST /v1/stripe/customer/set/changeDefaultCard`: all the cards with the new default. */
export type ChangeDefaultCardResponse = Schemas['CardsResponse'];

/** `GET /v1/payment/get/quote?returnId&lot`: the server's figures for the chosen lots. */
export interface Quote {
  price: number;
  lot: number;
  amount: number;
  tax: number;
  total: number;
  taxLabel: '税込' | '税別' | '非課税';
  taxRate: number;
}

/** `GET /v1/helper/get/master`'s card library settings. */
export interface PaymentLibraryConfig {
  publishableKey: string;
  jsUrl: string;
}
export interface MasterWithPayment {
  master: { payment?: PaymentLibraryConfig | null };
}

export type SupportAddress = AddressInput;

/** How step 4 pays by card: a saved card of the member, or a guest's one-time token. */
export type SupportCard = { cardId: string } | { token: string; save: false };

/** `POST /v1/payment/set/support`. */
export interface SupportRequest {
  projectId: number;
  returnId: number;
  lot: number;
  paymentType: PaymentTypeCode;
  idempotencyKey: string;
  displayname: string;
  corporateurl?: string;
  logoUrlId?: number;
  anonymous: boolean;
  comment?: string;
  additionalData?: string;
  address?: SupportAddress;
  addressId?: number;
  agreeTerms: boolean;
  notAntisocial: boolean;
  card?: SupportCard;
  guestEmail?: string;
}

export type SaleStatus =
  | 'succeeded'
  | 'requires_action'
  | 'awaiting_bank_transfer'
  | 'pending'
  | 'processing'
  | 'canceled'
  | 'failed';

export interface SupportSale {
  id: number;
  status: SaleStatus;
  paymentType: PaymentTypeCode;
  price: number;
  lot: number;
  amount: number;
  tax: number;
  total: number;
  taxLabel: string;
  createdAt: string;
  projectTitle: string;
  returnTitle: string;
  displayname: string;
}

/** Where and how much to transfer (a Japanese domestic bank transfer). */
export interface BankTransfer {
  amountRemaining: number;
  reference: string;
  bankName: string;
  branchName: string;
  accountType: string;
  accountTypeLabel: string;
  accountNumber: string;
  accountHolderName: string;
  /** `YYYY-MM-DD`, Asia/Tokyo. */
  deadline: string;
  deadlineText: string;
}

export interface NextAction {
  type: 'authenticate';
  clientSecret: string;
}

/** The answer of `POST /v1/payment/set/support` and `GET /v1/payment/get/status?receipt=`. */
export interface SupportResult {
  sale: SupportSale;
  receipt: string;
  nextAction: NextAction | null;
  bankTransfer: BankTransfer | null;
  /** Present when the support started a monthly support (our subscription id). */
  subscriptionId?: number | null;
}
