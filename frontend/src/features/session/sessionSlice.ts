import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readToken } from '@/lib/storage';

/**
 * Why the stored token went away, so the route guard can react once:
 * `expired` a 401 from loginCheck (alert, return path, `/login/?expired=1` on a protected page),
 * `rejected` any other refusal (treated like no token), `logout` the user's own choice (no notice).
 */
export type SessionEndReason = 'expired' | 'rejected' | 'logout';

export interface SessionState {
  /** Whether a token is stored; the server still decides whether it is valid. */
  hasToken: boolean;
  endReason: SessionEndReason | null;
}

export const initialSessionState = (): SessionState => ({ hasToken: readToken() !== null, endReason: null });

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    tokenStored: (state) => {
      state.hasToken = true;
      state.endReason = null;
    },
    tokenCleared: (state, action: PayloadAction<SessionEndReason | undefined>) => {
      state.hasToken = false;
      state.endReason = action.payload ?? 'rejected';
    },
    endReasonHandled: (state) => {
      state.endReason = null;
    },
  },
});

export const { tokenStored, tokenCleared, endReasonHandled } = sessionSlice.actions;
