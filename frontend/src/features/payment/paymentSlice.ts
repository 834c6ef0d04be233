import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '@/app/store';

/** A guest's card, set up by Stripe.js for one payment; kept in memory only, never stored. */
export interface GuestCard {
  /** The PaymentMethod the set-up made (`pm_...`). */
  paymentMethod: string;
  brand: string;
  last4: string;
  returnKey: string;
}

export interface PaymentState {
  guestCard: GuestCard | null;
  /** A member's saved card chosen for this payment only (the default card stays as it is). */
  chosenCardId: string | null;
}

const initialState: PaymentState = { guestCard: null, chosenCardId: null };

const paymentSlice = createSlice({
  name: 'payment',
  initialState,
  reducers: {
    guestCardSetUp: (state, action: PayloadAction<GuestCard>) => {
      state.guestCard = action.payload;
    },
    cardChosen: (state, action: PayloadAction<string | null>) => {
      state.chosenCardId = action.payload;
    },
    cardForgotten: (state) => {
      state.guestCard = null;
      state.chosenCardId = null;
    },
  },
  selectors: {
    selectGuestCard: (state) => state.guestCard,
    selectChosenCardId: (state) => state.chosenCardId,
  },
});

declare module '@/app/store' {
  // Merged into the store's lazily loaded state when this chunk is loaded.
  export interface LazyLoadedSlices extends WithSlice<typeof paymentSlice> {}
}

const injected = paymentSlice.injectInto(rootReducer);

export const { guestCardSetUp, cardChosen, cardForgotten } = paymentSlice.actions;
export const { selectGuestCard, selectChosenCardId } = injected.selectors;
