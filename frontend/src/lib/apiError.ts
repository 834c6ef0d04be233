import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

/** Shown when a call fails without a message from the server. */
export const NETWORK_ERROR_MESSAGE = '通信に失敗しました。時間をおいて再度お試しください。';

/**
 * The server's error shape: `{"error": "snake_code", "message": "日本語メッセージ"}`, with the refused
 * request field (`field`) or fields (`errors`) when a validation or constraint failure names them.
 */
export interface ApiErrorBody {
  error: string;
  message?: string;
  field?: string;
  errors?: { field: string; message: string }[];
}

const isFetchBaseQueryError = (error: unknown): error is FetchBaseQueryError =>
  typeof error === 'object' && error !== null && 'status' in error;

/** The server's error body, when the failure carried one. */
export const getApiErrorBody = (error: unknown): ApiErrorBody | null => {
  if (!isFetchBaseQueryError(error)) return null;
  const data: unknown = error.data;
  if (typeof data === 'object' && data !== null && typeof (data as ApiErrorBody).error === 'string') {
    return data as ApiErrorBody;
  }
  return null;
};

/** A message fit for the user: the server's own `message`, or a generic network failure. */
export const getErrorMessage = (error: unknown): string => {
  if (isFetchBaseQueryError(error)) {
    const data: unknown = error.data;
    if (typeof data === 'object' && data !== null && 'message' in data) {
      const { message } = data as { message: unknown };
      if (typeof message === 'string' && message.trim() !== '') return message;
    }
  }
  return NETWORK_ERROR_MESSAGE;
};
