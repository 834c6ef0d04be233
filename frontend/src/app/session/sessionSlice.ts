import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readToken } from '@/lib/storage';
import type { SessionNotice } from './messages';

/**
 * Why the stored token went away, so the route guard can react once:
 * `expired` a 401 from loginCheck (notice and return path on a protected page; to `/login/?expired=1`),
 * `failed` loginCheck failed otherwise (notice, to `/login/`),
 * `rejected` the server answered without a valid session (treated like no token),
 * `logout` the user's own choice (no notice).
 */
export type SessionEndReason = 'expired' | 'failed' | 'rejected' | 'logout';

export interface SessionState {
  /** Whether a token is stored; the server still decides whether it is valid. */
  hasToken: boolean;
  endReason: SessionEndReason | null;
  /** The session message on screen (an alert dialog), if any. */
  notice: SessionNotice | null;
}

export const initialSessionState = (): SessionState => ({
  hasToken: readToken() !== null,
  endReason: null,
  notice: null,
});

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
    noticeShown: (state, action: PayloadAction<SessionNotice>) => {
      state.notice = action.payload;
    },
    noticeDismissed: (state) => {
      state.notice = null;
    },
  },
});

export const { tokenStored, tokenCleared, endReasonHandled, noticeShown, noticeDismissed } = sessionSlice.actions;
