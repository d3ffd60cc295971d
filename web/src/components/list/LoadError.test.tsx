import { useQuery } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiFetch, ApiError } from '@/lib/api';
import { createTestQueryClient, jsonResponse, mockFetch } from '@/test/utils';
import { DataTable } from '../DataTable';
import { listTableProps } from './listTable';
import { isRetryableFailure, LoadError } from './LoadError';

interface Row {
  id: string;
  name: string;
}

const list = { page: 1, sort: undefined, setPage: vi.fn(), setSort: vi.fn() };

function Orders() {
  const query = useQuery({
    queryKey: ['orders'],
    queryFn: () => apiFetch<{ items: Row[]; total: number }>('/api/v1/admin/orders'),
    retry: false,
  });
  return (
    <DataTable
      caption="Orders"
      columns={[{ key: 'name', header: 'Name', cell: (row: Row) => row.name }]}
      rowKey={(row) => row.id}
      emptyText="No orders found"
      {...listTableProps(list, query)}
    />
  );
}

function renderOrders() {
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <Orders />
    </QueryClientProvider>,
  );
}

describe('a list that failed to load', () => {
  it('shows the error state with the request id and Retry instead of the empty text; Retry asks again', async () => {
    let answer = () => new Response(JSON.stringify({ code: 'internal_error', message: 'boom' }), { status: 500, headers: { 'X-Request-Id': 'req-42' } });
    const fetchMock = mockFetch(() => answer());
    renderOrders();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Orders could not be loaded.');
    expect(within(alert).getByText('req-42')).toBeInTheDocument();
    expect(alert).not.toHaveTextContent('boom');
    expect(screen.queryByText('No orders found')).not.toBeInTheDocument();

    answer = () => jsonResponse(200, { items: [{ id: '1', name: 'Order one' }], total: 1 });
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Order one')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the empty text only for a list that loaded empty', async () => {
    mockFetch(() => jsonResponse(200, { items: [], total: 0 }));
    renderOrders();
    expect(await screen.findByText('No orders found')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('isRetryableFailure', () => {
  it('is true for no answer, a 5xx and an unreadable answer; false for a refusal of what was asked', () => {
    expect(isRetryableFailure(new ApiError(0, 'network_error', 'x'))).toBe(true);
    expect(isRetryableFailure(new ApiError(503, 'unavailable', 'x'))).toBe(true);
    expect(isRetryableFailure(new ApiError(200, 'invalid_response', 'x'))).toBe(true);
    expect(isRetryableFailure(new ApiError(422, 'validation_failed', 'x'))).toBe(false);
    expect(isRetryableFailure(null)).toBe(false);
  });
});

describe('LoadError', () => {
  it('says the server could not be reached for a network failure, with no request id', () => {
    render(<LoadError error={new ApiError(0, 'network_error', 'The server could not be reached.')} onRetry={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The server could not be reached');
    expect(screen.queryByText(/Request id/)).not.toBeInTheDocument();
  });

  it('shows nothing for an ended session (the app asks to sign in instead)', () => {
    const { container } = render(
      <LoadError error={new ApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')} onRetry={vi.fn()} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
