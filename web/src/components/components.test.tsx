// The shared building blocks, driven the way a person uses them: by role and accessible name.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Banner, type BannerMessage } from './Banner';
import { ConfirmDialog } from './ConfirmDialog';
import { nextSort, pageCount, type SortState } from '@/lib/list';
import { DataTable } from './DataTable';
import { FormField } from './FormField';
import { isAccessDenied } from './StaffPage';
import { ApiError } from '@/lib/api';

afterEach(() => {
  vi.useRealTimers();
});

describe('FormField', () => {
  it('ties the label, the hint and the error to the control', () => {
    render(<FormField label="Slug" name="slug" hint="Lower case, hyphens between words" error="That slug is taken." defaultValue="x" />);
    const input = screen.getByRole('textbox', { name: 'Slug' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('That slug is taken. Lower case, hyphens between words');
  });

  it('is valid without an error, and can be a text area with a required mark', () => {
    render(<FormField label="Message" multiline required requiredMark defaultValue="" />);
    const area = screen.getByRole('textbox', { name: /Message/ });
    expect(area.tagName).toBe('TEXTAREA');
    expect(area).toBeRequired();
    expect(area).not.toHaveAttribute('aria-invalid');
  });
});

describe('DataTable', () => {
  interface Row {
    id: string;
    name: string;
  }
  const columns = [
    { key: 'name', header: 'Name', sortable: true, cell: (r: Row) => r.name },
    { key: 'id', header: 'Id', cell: (r: Row) => r.id },
  ];

  it('says the empty text and the loading state', () => {
    const { rerender } = render(
      <DataTable caption="Users" columns={columns} rows={undefined} rowKey={(r) => r.id} loading emptyText="No users yet" page={1} pageSize={50} total={0} onPageChange={() => undefined} />,
    );
    expect(screen.getByRole('cell', { name: 'Loading ...' })).toBeInTheDocument();
    rerender(<DataTable caption="Users" columns={columns} rows={[]} rowKey={(r) => r.id} emptyText="No users yet" page={1} pageSize={50} total={0} onPageChange={() => undefined} />);
    expect(screen.getByRole('cell', { name: 'No users yet' })).toBeInTheDocument();
  });

  it('takes keyboard focus, named by its caption, only while the table is wider than its box', () => {
    const widths = { scroll: 500, client: 500 };
    vi.stubGlobal(
      'ResizeObserver',
      class {
        readonly callback: () => void;
        constructor(callback: () => void) {
          this.callback = callback;
        }
        observe() {
          this.callback();
        }
        disconnect() {
          // nothing to stop
        }
      },
    );
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(() => widths.scroll);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => widths.client);
    const table = (
      <DataTable caption="Users" columns={columns} rows={[{ id: 'u1', name: 'Ana' }]} rowKey={(r) => r.id} emptyText="None" page={1} pageSize={50} total={1} onPageChange={() => undefined} />
    );
    const { unmount } = render(table);
    expect(screen.queryByRole('region', { name: 'Users' })).not.toBeInTheDocument();
    unmount();
    widths.scroll = 1200;
    render(table);
    expect(screen.getByRole('region', { name: 'Users' })).toHaveAttribute('tabindex', '0');
  });

  it('asks for the next sort and the next page, and marks the sorted column', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    function Harness() {
      const [sort, setSort] = useState<SortState | undefined>(undefined);
      return (
        <DataTable
          caption="Users"
          columns={columns}
          rows={[{ id: '1', name: 'Aroha' }]}
          rowKey={(r) => r.id}
          emptyText="No users yet"
          sort={sort}
          onSortChange={setSort}
          page={1}
          pageSize={1}
          total={3}
          onPageChange={onPage}
        />
      );
    }
    render(<Harness />);
    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it('flips the same column and starts a new one ascending', () => {
    expect(nextSort(undefined, 'joined')).toEqual({ column: 'joined', direction: 'asc' });
    expect(nextSort({ column: 'joined', direction: 'desc' }, 'joined')).toEqual({ column: 'joined', direction: 'asc' });
    expect(nextSort({ column: 'joined', direction: 'asc' }, 'joined')).toEqual({ column: 'joined', direction: 'desc' });
    expect(nextSort({ column: 'joined', direction: 'desc' }, 'tier')).toEqual({ column: 'tier', direction: 'asc' });
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(101, 50)).toBe(3);
  });
});

describe('ConfirmDialog', () => {
  it('asks the question and answers either way', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog open title="Remove member" message="Remove this member from the enterprise account?" confirmLabel="Remove" danger onConfirm={onConfirm} onCancel={onCancel} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Remove member' });
    expect(dialog).toHaveAccessibleDescription('Remove this member from the enterprise account?');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });
});

describe('Banner', () => {
  it('hides a success message after 3 seconds', () => {
    vi.useFakeTimers();
    function Harness() {
      const [message, setMessage] = useState<BannerMessage | null>({ tone: 'success', text: 'Product created successfully!' });
      return <Banner message={message} onDismiss={() => setMessage(null)} />;
    }
    render(<Harness />);
    expect(screen.getByRole('status')).toHaveTextContent('Product created successfully!');
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('keeps a sticky error until dismissed', async () => {
    const user = userEvent.setup();
    const onDismiss = vi.fn();
    render(<Banner message={{ tone: 'error', text: 'Failed to update' }} onDismiss={onDismiss} sticky />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to update');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismiss).toHaveBeenCalledOnce();
  });
});

describe('isAccessDenied', () => {
  it('is a staff refusal, not a two-factor step nor an ended session', () => {
    expect(isAccessDenied(new ApiError(403, 'forbidden', 'Admin only'))).toBe(true);
    expect(isAccessDenied(new ApiError(403, 'insufficient_aal', 'Step up'))).toBe(false);
    expect(isAccessDenied(new ApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'))).toBe(false);
    expect(isAccessDenied(new ApiError(401, 'no_authorization', 'Sign in'))).toBe(false);
  });
});
