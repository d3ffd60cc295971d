// "Export CSV": the list's filters, search and sort go to the export (never its page), the file is
// saved under the server's name, and a refusal is shown in words.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListSpec } from '@/lib/list';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockApi, renderRoute } from '@/test/utils';
import { ExportButton, exportHref } from './ExportButton';
import { useListState } from './useListState';

const SPEC: ListSpec<'status' | 'q'> = { filters: ['status', 'q'], sort: { columns: ['created', 'number'], initial: { column: 'created', direction: 'desc' } } };

function Screen() {
  const list = useListState(SPEC);
  return <ExportButton path="/api/v1/admin/things/export.csv" params={list.params} fallbackName="things.csv" />;
}

const saved: { name: string; href: string }[] = [];

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
  saved.length = 0;
  URL.createObjectURL = vi.fn(() => 'blob:export-1');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ExportButton', () => {
  it('leaves paging out of the export address', () => {
    expect(exportHref('/x/export.csv', { status: 'paid', q: 'ana', sort: 'number', dir: 'asc', page: 3, page_size: 50 })).toBe(
      '/x/export.csv?status=paid&q=ana&sort=number&dir=asc',
    );
    expect(exportHref('/x/export.csv', { page: 1, page_size: 50 })).toBe('/x/export.csv');
  });

  it("downloads with the list's current filters and the session's token, under the server's file name", async () => {
    const asked: URL[] = [];
    let authorization = '';
    mockApi((url, init) => {
      asked.push(url);
      authorization = (init?.headers as Record<string, string>).Authorization ?? '';
      return new Response('\uFEFForder_number\r\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="things-2026-11-27.csv"' },
      });
    });
    const user = userEvent.setup();
    renderRoute(<Screen />, { path: '/things', initialEntry: '/things?status=paid&q=ana&sort=number&dir=asc&page=2' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked[0]!.pathname).toBe('/api/v1/admin/things/export.csv');
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ status: 'paid', q: 'ana', sort: 'number', dir: 'asc' });
    expect(authorization).toMatch(/^Bearer /);
    expect(saved[0]).toEqual({ name: 'things-2026-11-27.csv', href: 'blob:export-1' });
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('says why when the server refuses, and saves nothing', async () => {
    mockApi(() => jsonResponse(422, { code: 'validation_failed', message: 'Choose draft or issued.', fields: { status: 'Choose draft or issued.' } }));
    const user = userEvent.setup();
    renderRoute(<Screen />, { path: '/things', initialEntry: '/things?status=void' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose draft or issued.');
    expect(saved).toHaveLength(0);
  });
});
