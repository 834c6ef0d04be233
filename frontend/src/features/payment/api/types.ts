import type { Schemas } from '@/lib/apiTypes';

/*
 * The backing flow's bodies, as the server's OpenAPI description states them (`npm run generate:api`): a server
 * change that breaks a step fails the typecheck.
 */

/** Payment types of the specs: 1 card, 2 bank transfer. */
export type PaymentTypeCode = Schemas['PaymentTypeCode'];

/** The project's question to supporters (`additionalData`): label, explanation, placeholder, its own alert. */
export type AdditionalDataField = Schemas['AdditionalDataDto'];

/** A return as the flow needs it, with the delivery address label (null: no address). */
export type PaymentReturn = Schemas['ReturnDto'];

/** `GET /v1/project/get/detail?slug=`: with the methods the project accepts and its question to supporters. */
export type PaymentProject = Schemas['ProjectDetailDto'];

/** `GET /v1/user/get/authUser`. */
export type Member = Schemas['UserDto'];
export type SavedAddress = Schemas['AddressDto'];
/** A delivery address as step 1 collects it: every field of a saved one (the server's form takes each optional). */
export type AddressInput = Omit<SavedAddress, 'id'>;

/** `POST /v1/user/register` with `isGuest`. */
export type GuestRegisterRequest = Pick<Schemas['RegisterRequest'], 'email' | 'isGuest'>;
export type GuestRegisterResponse = Schemas['RegisterResponse'];

/** A saved card of the member. */
export type Card = Schemas['CardDto'];

/** `GET /v1/stripe/customer/get/cards`, and the answer of deleting one. */
export type CardsResponse = Schemas['CardsResponse'];

/** `POST /v1/stripe/customer/set/updater`. */
export type RegisterCardRequest = Schemas['RegisterCardRequest'];
/** `POST /v1/stripe/set/cardSetup`: the client secret Stripe.js's `confirmCardSetup` takes. */
export type CardSetupResponse = Schemas['CardSetupResponse'];
/** `GET /v1/stripe/get/cardSetup`: the card a confirmed set-up made. */
export type SetUpCardResponse = Schemas['SetUpCardResponse'];
/** The new card and all the member's cards with the default. */
export type RegisterCardResponse = Schemas['RegisteredCardResponse'];

/** `POST /v1/stripe/customer/set/changeDefaultCard`: all the cards with the new default. */
export type ChangeDefaultCardResponse = Schemas['CardsResponse'];

/** `GET /v1/payment/get/quote?returnId&lot`: the server's figures for the chosen lots. */
export type Quote = Schemas['QuoteResponse'];

/** `GET /v1/helper/get/master`'s card library settings. */
export type PaymentLibraryConfig = Schemas['PaymentClient'];

/** How step 4 pays by card: a saved card of the member (`cardId`), or a guest's one-time token (`token`). */
export type SupportCard = Schemas['CardChoiceRequest'];

/** `POST /v1/payment/set/support`. */
export type SupportRequest = Schemas['SupportRequest'];

export type SaleStatus = Schemas['SaleStatus'];

export type SupportSale = Schemas['SaleDto'];

/** Where and how much to transfer (a Japanese domestic bank transfer). */
export type BankTransfer = Schemas['BankTransferDto'];

export type NextAction = Schemas['NextActionDto'];

/** The answer of `POST /v1/payment/set/support` and `GET /v1/payment/get/status?receipt=`. */
export type SupportResult = Schemas['SupportResult'];
