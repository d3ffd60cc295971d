import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/utils';
import { PrivacyPage } from './PrivacyPage';
import { TermsPage } from './TermsPage';

function numberedSections() {
  return screen.getAllByRole('heading', { level: 2 }).filter((heading) => /^\d+\. /.test(heading.textContent));
}

describe('Terms and Conditions', () => {
  it('has exactly nine numbered sections, in order, and the last-updated date', () => {
    renderRoute(<TermsPage />, { path: '/terms', initialEntry: '/terms' });
    expect(screen.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeInTheDocument();
    const sections = numberedSections();
    expect(sections).toHaveLength(9);
    expect(sections.map((heading) => heading.textContent.split('.')[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(screen.getByText('Last updated: October 2025')).toBeInTheDocument();
    expect(document.title).toBe('Terms and Conditions | Signalcraft');
  });

  it('states the refund rules, the consumer laws, the payment provider and the contact details', () => {
    renderRoute(<TermsPage />, { path: '/terms', initialEntry: '/terms' });
    const text = document.body.textContent;
    expect(text).toContain('no change-of-mind refunds after digital delivery, except as required by law');
    expect(text).toContain('within 14 days from purchase');
    expect(text).toContain('Consumer Guarantees Act 1993');
    expect(text).toContain('Fair Trading Act 1986');
    expect(text).toContain('include GST');
    expect(text).toContain('third-party payment provider');
    expect(text).toContain('does not see or store your full card details');
    expect(text).toContain('within 24 hours');
    expect(screen.getByRole('link', { name: 'sales@signalcraft.co.nz' })).toHaveAttribute('href', 'mailto:sales@signalcraft.co.nz');
    expect(screen.getByRole('link', { name: 'support@signalcraft.co.nz' })).toHaveAttribute('href', 'mailto:support@signalcraft.co.nz');
  });

  it('closes back to the landing page', async () => {
    const user = userEvent.setup();
    renderRoute(<TermsPage />, { path: '/terms', initialEntry: '/terms' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});

describe('Privacy Policy', () => {
  it('has an introduction plus exactly ten numbered sections and the last-updated date', () => {
    renderRoute(<PrivacyPage />, { path: '/privacy', initialEntry: '/privacy' });
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Introduction' })).toHaveTextContent('Privacy Act 2020');
    const sections = numberedSections();
    expect(sections).toHaveLength(10);
    expect(sections.map((heading) => heading.textContent.split('.')[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(screen.getByText('Last updated: October 2025')).toBeInTheDocument();
  });

  it('describes the mobile apps and what they collect', () => {
    renderRoute(<PrivacyPage />, { path: '/privacy', initialEntry: '/privacy' });
    expect(screen.getByRole('heading', { name: '3. Our mobile apps' })).toBeInTheDocument();
    const text = document.body.textContent;
    expect(text).toContain('available on Android now, and an iOS version is coming soon');
    expect(text).toContain('does not receive or store your full card details');
  });

  it('closes back to the landing page', async () => {
    const user = userEvent.setup();
    renderRoute(<PrivacyPage />, { path: '/privacy', initialEntry: '/privacy' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
