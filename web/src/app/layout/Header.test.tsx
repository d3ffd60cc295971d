// The phone header: the links behind "Menu" (jsdom has no layout, so "hidden" is its class).
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '@/lib/auth';
import { createTestQueryClient, mockApi } from '@/test/utils';
import { Header } from './Header';

function renderHeader() {
  mockApi(() => undefined);
  const auth: AuthContextValue = {
    user: { id: 'u1', email: 'ana@example.nz', fullName: 'Ana' },
    isAdmin: false,
    loading: false,
    needsMfa: false,
    openSignIn: vi.fn(),
    openSignUp: vi.fn(),
    openMfa: vi.fn(),
    signOut: vi.fn(() => Promise.resolve()),
  };
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthContext.Provider value={auth}>
        <MemoryRouter>
          <Header />
        </MemoryRouter>
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
}

describe('Header menu', () => {
  it('opens the links, closes with Escape and gives focus back to the button', async () => {
    const user = userEvent.setup();
    renderHeader();
    const button = screen.getByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main', hidden: true });
    expect(button).toHaveAttribute('aria-controls', nav.id);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(nav).toHaveClass('hidden');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(nav).not.toHaveClass('hidden');
    within(nav).getByRole('link', { name: 'Account' }).focus();
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('closes when a link is chosen', async () => {
    const user = userEvent.setup();
    renderHeader();
    const button = screen.getByRole('button', { name: 'Menu' });
    await user.click(button);
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Dashboard' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
