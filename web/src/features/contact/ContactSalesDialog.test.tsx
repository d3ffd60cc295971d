import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient, deferred, jsonResponse, mockFetch } from '@/test/utils';
import { CONTACT_ERROR_TEXT, CONTACT_SUCCESS_TEXT, ContactSalesDialog } from './ContactSalesDialog';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Contact Sales
      </button>
      <ContactSalesDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function setup(options: Parameters<typeof userEvent.setup>[0] = {}) {
  const user = userEvent.setup(options);
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <Harness />
    </QueryClientProvider>,
  );
  return user;
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Contact Sales' }));
  return screen.getByRole('dialog', { name: 'Contact Sales' });
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Aroha Ngata');
  await user.type(screen.getByRole('textbox', { name: 'Email' }), 'aroha@example.co.nz');
  await user.type(screen.getByRole('textbox', { name: 'Message' }), 'We need 12 licences.');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ContactSalesDialog', () => {
  it('is a labelled modal dialog with every field, focus on Name, and the right limits', async () => {
    mockFetch(() => jsonResponse(201, { id: 'x' }));
    const user = setup();
    const dialog = await openDialog(user);

    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    const company = within(dialog).getByRole('textbox', { name: 'Company' });
    const phone = within(dialog).getByRole('textbox', { name: 'Phone' });
    const message = within(dialog).getByRole('textbox', { name: 'Message' });
    expect(name).toHaveFocus();

    expect(name).toBeRequired();
    expect(email).toBeRequired();
    expect(message).toBeRequired();
    expect(company).not.toBeRequired();
    expect(phone).not.toBeRequired();
    expect(email).toHaveAttribute('type', 'email');
    expect(message.tagName).toBe('TEXTAREA');
    expect(message).toHaveAttribute('rows', '6');

    expect(name).toHaveAttribute('maxLength', '200');
    expect(email).toHaveAttribute('maxLength', '254');
    expect(company).toHaveAttribute('maxLength', '200');
    expect(phone).toHaveAttribute('maxLength', '50');
    expect(message).toHaveAttribute('maxLength', '5000');

    expect(within(dialog).getByRole('button', { name: 'Send Message' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('does not send the form while required fields are empty', async () => {
    const fetchMock = mockFetch(() => jsonResponse(201, { id: 'x' }));
    const user = setup();
    await openDialog(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Contact Sales' })).toBeInTheDocument();
  });

  it("shows 'Sending...' while submitting, then the thank-you, then closes itself after 2 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const response = deferred<Response>();
    const fetchMock = mockFetch(() => response.promise);
    const user = setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    await openDialog(user);
    await fillRequired(user);
    await user.type(screen.getByRole('textbox', { name: 'Company' }), '  Roading Ltd  ');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const sending = await screen.findByRole('button', { name: 'Sending...' });
    expect(sending).toBeDisabled();

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/contact');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({
      name: 'Aroha Ngata',
      email: 'aroha@example.co.nz',
      company: 'Roading Ltd',
      message: 'We need 12 licences.',
    });

    response.resolve(jsonResponse(201, { id: '5b0c5c52-6a4c-4c1e-9d62-1f1f1f1f1f1f' }));
    expect(await screen.findByText(CONTACT_SUCCESS_TEXT)).toBeInTheDocument();
    expect(CONTACT_SUCCESS_TEXT).toBe("Thank you! We'll get back to you within 24 hours.");

    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(screen.getByRole('dialog', { name: 'Contact Sales' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Contact Sales' })).toHaveFocus();
  });

  it('shows the error in the form and keeps what was typed', async () => {
    mockFetch(() => jsonResponse(500, { code: 'internal', message: 'boom' }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = setup();
    await openDialog(user);
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CONTACT_ERROR_TEXT);
    expect(CONTACT_ERROR_TEXT).toBe('Failed to submit form. Please try again or email us directly at sales@signalcraft.co.nz');
    expect(screen.getByRole('dialog', { name: 'Contact Sales' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Aroha Ngata');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('We need 12 licences.');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it('shows field errors from a 422 answer next to their fields', async () => {
    mockFetch(() =>
      jsonResponse(422, {
        code: 'validation_failed',
        message: 'Some fields are invalid',
        fields: { email: 'Enter a valid email address', message: 'Message is too long' },
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = setup();
    await openDialog(user);
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const email = await screen.findByRole('textbox', { name: 'Email' });
    await waitFor(() => expect(email).toHaveAccessibleDescription('Enter a valid email address'));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAccessibleDescription('Message is too long');
    expect(screen.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-invalid');

    // Editing a field clears its error.
    await user.type(email, 'x');
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('closes with Cancel, the close icon and Escape, returning focus to the opener', async () => {
    mockFetch(() => jsonResponse(201, { id: 'x' }));
    const user = setup();
    const opener = screen.getByRole('button', { name: 'Contact Sales' });

    await openDialog(user);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await openDialog(user);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await openDialog(user);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Someone');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    // A new opening starts with an empty form.
    await openDialog(user);
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });

  it('keeps keyboard focus inside the dialog', async () => {
    mockFetch(() => jsonResponse(201, { id: 'x' }));
    const user = setup();
    const dialog = await openDialog(user);
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const send = within(dialog).getByRole('button', { name: 'Send Message' });

    send.focus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(send).toHaveFocus();
  });
});
