// The detail kit, driven by role and accessible name.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FieldList } from './FieldList';
import { FormAlert } from './FormAlert';
import { FormDialog } from './FormDialog';
import { Panel, PanelEmpty } from './Panel';
import { StatCard } from './StatCard';

describe('Panel', () => {
  it('is a region named by its heading, with its actions and content', () => {
    render(
      <Panel title="Orders" actions={<button type="button">Export</button>}>
        <PanelEmpty>No orders.</PanelEmpty>
      </Panel>,
    );
    const region = screen.getByRole('region', { name: 'Orders' });
    expect(within(region).getByRole('heading', { level: 2, name: 'Orders' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(within(region).getByText('No orders.')).toBeInTheDocument();
  });

  it('uses the id it is given for its heading', () => {
    render(<Panel title="Items" id="order-items">x</Panel>);
    expect(screen.getByRole('heading', { name: 'Items' })).toHaveAttribute('id', 'order-items');
    expect(screen.getByRole('region', { name: 'Items' })).toHaveAttribute('aria-labelledby', 'order-items');
  });
});

describe('StatCard', () => {
  it('is a term and its values in a description list', () => {
    render(
      <dl>
        <StatCard label="Revenue" value="$12.50" note="All time: $99.00" extra={['AUD: A$1.00']} />
      </dl>,
    );
    const term = screen.getByRole('term');
    expect(term).toHaveTextContent('Revenue');
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['$12.50', 'All time: $99.00', 'AUD: A$1.00']);
  });
});

describe('FieldList', () => {
  it('makes a term and a definition of each pair, in order', () => {
    render(<FieldList fields={[['Name', 'Ana'], ['Email', <a key="e" href="mailto:ana@example.nz">ana@example.nz</a>]]} />);
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['Name', 'Email']);
    const values = screen.getAllByRole('definition');
    expect(values[0]).toHaveTextContent('Ana');
    expect(within(values[1]!).getByRole('link', { name: 'ana@example.nz' })).toBeInTheDocument();
  });
});

describe('FormAlert', () => {
  it('is a status for a success and an alert for an error', () => {
    const { rerender } = render(<FormAlert tone="success">Saved.</FormAlert>);
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    rerender(<FormAlert tone="error">Failed.</FormAlert>);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed.');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('renders nothing without a message', () => {
    const { container } = render(<FormAlert tone="error">{null}</FormAlert>);
    expect(container).toBeEmptyDOMElement();
  });
});

function Opener({ onSubmit, pending = false, error = null }: { onSubmit: () => void; pending?: boolean; error?: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Edit note
      </button>
      <FormDialog
        open={open}
        title="Edit note"
        confirmLabel="Save"
        pendingLabel="Saving..."
        pending={pending}
        error={error}
        onSubmit={onSubmit}
        onClose={() => setOpen(false)}
      >
        <label>
          Note
          <input name="note" />
        </label>
      </FormDialog>
    </>
  );
}

describe('FormDialog', () => {
  it('submits with the confirm button or Enter, keeps focus inside, closes with Escape and returns focus', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Opener onSubmit={onSubmit} />);
    const opener = screen.getByRole('button', { name: 'Edit note' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Edit note' });
    const note = within(dialog).getByRole('textbox', { name: 'Note' });
    await user.type(note, 'hello{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    // Tab past the last button wraps to the first focusable element in the dialog.
    within(dialog).getByRole('button', { name: 'Save' }).focus();
    await user.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('Cancel closes it without submitting', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Opener onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Edit note' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('while pending: says so, the buttons are disabled and nothing is submitted again', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Opener onSubmit={onSubmit} pending error="The note could not be saved." />);
    await user.click(screen.getByRole('button', { name: 'Edit note' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit note' });
    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The note could not be saved.');
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), '{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
