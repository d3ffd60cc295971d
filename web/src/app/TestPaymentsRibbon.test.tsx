import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestQueryClient } from '@/test/utils';
import { App } from './App';

describe('the TEST PAYMENTS ribbon', () => {
  it('is on the page when the server takes test payments, and absent otherwise', () => {
    const { unmount } = render(<App queryClient={createTestQueryClient()} testPayments />);
    expect(screen.getByRole('note', { name: 'Test payments' })).toHaveTextContent('TEST PAYMENTS');
    unmount();
    render(<App queryClient={createTestQueryClient()} />);
    expect(screen.queryByRole('note', { name: 'Test payments' })).toBeNull();
  });
});
