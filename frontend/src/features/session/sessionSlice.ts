import { createSlice } from '@reduxjs/toolkit';
import { readToken } from '@/lib/storage';

export interface SessionState {
  /** Whether a token is stored; the server still decides whether it is valid. */
  hasToken: boolean;
}

export const initialSessionState = (): SessionState => ({ hasToken: readToken() !== null });

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    tokenStored: (state) => {
      state.hasToken = true;
    },
    tokenCleared: (state) => {
      state.hasToken = false;
    },
  },
});

export const { tokenStored, tokenCleared } = sessionSlice.actions;
