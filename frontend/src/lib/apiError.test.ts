import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE, getErrorMessage } from './apiError';

describe('getErrorMessage', () => {
  it('shows the message of the server error body', () => {
    const error = { status: 429, data: { error: 'rate_limited', message: 'しばらくしてから再度お試しください。' } };
    expect(getErrorMessage(error)).toBe('しばらくしてから再度お試しください。');
  });

  it('falls back to the network message without a server message', () => {
    expect(getErrorMessage({ status: 500, data: 'Internal Server Error' })).toBe(NETWORK_ERROR_MESSAGE);
    expect(getErrorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(NETWORK_ERROR_MESSAGE);
    expect(getErrorMessage({ status: 400, data: { error: 'bad', message: '  ' } })).toBe(NETWORK_ERROR_MESSAGE);
    expect(getErrorMessage(new Error('boom'))).toBe(NETWORK_ERROR_MESSAGE);
  });
});
