import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { createQueryClient } from './queryClient';

describe('createQueryClient retries', () => {
  const retry = createQueryClient().getDefaultOptions().queries?.retry as (failureCount: number, error: unknown) => boolean;

  it('never retries a 4xx answer', () => {
    expect(retry(0, new ApiError(404, 'product_not_found', 'Product not found'))).toBe(false);
    expect(retry(0, new ApiError(422, 'validation_failed', 'Invalid'))).toBe(false);
  });

  it('retries a 5xx answer, a network failure or another error once', () => {
    expect(retry(0, new ApiError(500, 'http_error', 'Request failed'))).toBe(true);
    expect(retry(0, new ApiError(0, 'network_error', 'The server could not be reached.'))).toBe(true);
    expect(retry(0, new Error('boom'))).toBe(true);
    expect(retry(1, new ApiError(503, 'server_busy', 'Busy'))).toBe(false);
  });
});
