import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { selectLoginCheck } from '@/app/session/sessionApi';
import { api } from '@/lib/api';
import type { ApiQuery, ApiResponse } from '@/lib/apiTypes';
import { savedCardsOf, type SavedCards } from '../cards/savedCards';
import type {
  CardSetupResponse,
  CardsResponse,
  ChangeDefaultCardResponse,
  GuestRegisterRequest,
  GuestRegisterResponse,
  Member,
  PaymentLibraryConfig,
  PaymentProject,
  Quote,
  RegisterCardRequest,
  RegisterCardResponse,
  SetUpCardResponse,
  SupportRequest,
  SupportResult,
} from './types';

/** Whether the session (loginCheck) knew of a provider customer; the first card makes one. */
const sessionHasCustomer = (state: unknown): boolean =>
  selectLoginCheck(state as Parameters<typeof selectLoginCheck>[0]).data?.hasCustomer === true;

/** Whether the session (loginCheck) is a member's: a guest has no member-only data to read again. */
const sessionIsMember = (state: unknown): boolean =>
  selectLoginCheck(state as Parameters<typeof selectLoginCheck>[0]).data?.isLoggedIn === true;

/** The backing flow's endpoints (contract of issue #9). */
export const paymentApi = api.enhanceEndpoints({ addTagTypes: ['Cards', 'Subscriptions'] }).injectEndpoints({
  endpoints: (build) => ({
    paymentProject: build.query<PaymentProject, string>({
      query: (slug) => ({ url: '/project/get/detail', params: { slug } }),
      transformResponse: (response: ApiResponse<'project_detail'>) => response.project,
    }),
    paymentMember: build.query<Member, void>({
      query: () => '/user/get/authUser',
      transformResponse: (response: ApiResponse<'auth_user'>) => response.user,
      providesTags: ['User'],
    }),
    paymentLibrary: build.query<PaymentLibraryConfig, void>({
      query: () => '/helper/get/master',
      transformResponse: (response: ApiResponse<'master'>) => response.master.payment,
    }),
    registerGuest: build.mutation<GuestRegisterResponse, GuestRegisterRequest>({
      query: (body) => ({ url: '/user/register', method: 'POST', body }),
    }),
    savedCards: build.query<SavedCards, void>({
      query: () => '/stripe/customer/get/cards',
      transformResponse: (response: CardsResponse) => savedCardsOf(response.data),
      providesTags: ['Cards'],
    }),
    // A card set-up Stripe.js confirms: under the member's customer, or nobody's for a guest.
    startCardSetup: build.mutation<CardSetupResponse, void>({
      query: () => ({ url: '/stripe/set/cardSetup', method: 'POST' }),
      // A member's first set-up made the provider customer: the session checks again (spec 000 §4).
      async onQueryStarted(_request, { dispatch, getState, queryFulfilled }) {
        const member = sessionIsMember(getState()) && !sessionHasCustomer(getState());
        try {
          await queryFulfilled;
          if (member) dispatch(api.util.invalidateTags(['Session']));
        } catch {
          // The form shows the failure.
        }
      },
    }),
    // The secret goes in the body, never in a URL that logs keep.
    setUpCard: build.mutation<SetUpCardResponse, string>({
      query: (clientSecret) => ({ url: '/stripe/get/cardSetup', method: 'POST', body: { clientSecret } }),
    }),
    registerCard: build.mutation<RegisterCardResponse, RegisterCardRequest>({
      query: (body) => ({ url: '/stripe/customer/set/updater', method: 'POST', body }),
      // The answer carries every card: the card-select modal that opens next lists the new one at once
      // (a refetch would land after the modal has taken its initial choice).
      // The first card also made the provider customer: the session checks again and loads what a member with
      // a customer has (spec 000 §4).
      async onQueryStarted(_request, { dispatch, getState, queryFulfilled }) {
        const hadCustomer = sessionHasCustomer(getState());
        try {
          const { data } = await queryFulfilled;
          dispatch(paymentApi.util.upsertQueryData('savedCards', undefined, savedCardsOf(data.data)));
          if (!hadCustomer) dispatch(api.util.invalidateTags(['Session']));
        } catch {
          // The form shows the failure.
        }
      },
    }),
    changeDefaultCard: build.mutation<ChangeDefaultCardResponse, string>({
      query: (cardId) => ({ url: '/stripe/customer/set/changeDefaultCard', method: 'POST', body: { card_id: cardId } }),
      // The answer lists every card with the new default: no second request for them. The monthly supports paid by
      // the default card are read again (which card pays them is on their list and in the delete warning); after a
      // failure the server may still have changed the default, so the cards are read again too.
      invalidatesTags: (_result, error) => (error ? ['Cards', 'Subscriptions'] : ['Subscriptions']),
      async onQueryStarted(_cardId, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(paymentApi.util.upsertQueryData('savedCards', undefined, savedCardsOf(data.data)));
        } catch {
          // The screen shows the failure.
        }
      },
    }),
    deleteCard: build.mutation<SavedCards, string>({
      query: (cardId) => ({ url: '/stripe/customer/set/deleteCard', method: 'POST', body: { card_id: cardId } }),
      transformResponse: (response: CardsResponse) => savedCardsOf(response.data),
      // The monthly supports it paid move to another card or stop (contract of issue #10): read them again.
      invalidatesTags: ['Subscriptions'],
      async onQueryStarted(_cardId, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(paymentApi.util.upsertQueryData('savedCards', undefined, data));
        } catch {
          // The screen shows the failure.
        }
      },
    }),
    // The parameters come from the server's description: a missing one fails the typecheck, not step 4.
    quote: build.query<Quote, ApiQuery<'quote'>>({
      query: (params) => ({ url: '/payment/get/quote', params }),
    }),
    placeSupport: build.mutation<SupportResult, SupportRequest>({
      query: (body) => ({ url: '/payment/set/support', method: 'POST', body }),
      // Not `invalidatesTags`: that would refetch member-only lists for a guest too (see `supportChanged`).
      // Also after a failure: a declined or unanswered call may still have recorded a sale.
      async onQueryStarted(_request, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          // The confirm screen shows the failure.
        }
        dispatch(supportChanged());
      },
    }),
    supportStatus: build.query<SupportResult, string>({
      query: (receipt) => ({ url: '/payment/get/status', params: { receipt } }),
    }),
  }),
});

/**
 * What a member's support may have changed on the server: the payment history and, for a monthly return, the
 * monthly supports. Invalidated only for a member: a guest must never (re)fetch member-only endpoints (a 401 there
 * would end the session with the expiry notice). RTK Query refetches only the lists someone is reading.
 */
export const MEMBER_SUPPORT_TAGS = ['Sales', 'Subscriptions'] as const;

/** Marks a member's history and monthly supports as stale after a support changed (placed, or authenticated). */
export const supportChanged = (): ThunkAction<void, unknown, unknown, UnknownAction> => (dispatch, getState) => {
  if (sessionIsMember(getState())) dispatch(paymentApi.util.invalidateTags([...MEMBER_SUPPORT_TAGS]));
};

export const {
  usePaymentProjectQuery,
  usePaymentMemberQuery,
  usePaymentLibraryQuery,
  useRegisterGuestMutation,
  useSavedCardsQuery,
  useRegisterCardMutation,
  useStartCardSetupMutation,
  useSetUpCardMutation,
  useChangeDefaultCardMutation,
  useDeleteCardMutation,
  useQuoteQuery,
  usePlaceSupportMutation,
  useSupportStatusQuery,
  useLazySupportStatusQuery,
} = paymentApi;
