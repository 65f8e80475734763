import { AppError, ERROR_STATUS, failure, success } from '../src/index.js';

describe('error codes', () => {
  // Spec §7, row by row: the status each code must map to.
  it.each([
    ['INVALID_REQUEST', 400],
    ['UNAUTHORIZED', 401],
    ['USER_NOT_FOUND', 404],
    ['WALLET_NOT_FOUND', 404],
    ['UNKNOWN_ERROR', 500],
  ] as const)('%s -> %i', (code, status) => {
    expect(ERROR_STATUS[code]).toBe(status);
    expect(new AppError(code, 'x').status).toBe(status);
  });

  it('builds both envelope shapes', () => {
    expect(success(undefined)).toEqual({ success: true, data: null });
    expect(success({ a: 1 })).toEqual({ success: true, data: { a: 1 } });
    expect(failure('UNAUTHORIZED', 'Unauthorized')).toEqual({ success: false, code: 'UNAUTHORIZED', msg: 'Unauthorized' });
  });
});
