// The account pages' own navigation: Profile, Security, Invoices and Your data. Shown under each
// page's heading; the current page is marked for screen readers (aria-current) and by colour.
import { NavLink } from 'react-router';

export const ACCOUNT_PAGES = [
  { to: '/account', label: 'Profile' },
  { to: '/account/security', label: 'Security' },
  { to: '/account/invoices', label: 'Invoices' },
  { to: '/account/privacy', label: 'Your data' },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `inline-block rounded-lg px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-brand-50 text-brand-900' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
  }`;

export function AccountNav() {
  return (
    <nav aria-label="Account" className="mt-4 border-b border-slate-200 pb-2">
      <ul className="flex flex-wrap gap-1">
        {ACCOUNT_PAGES.map((page) => (
          <li key={page.to}>
            {/* Profile is /account itself: only its own path marks it, not its sub-pages. */}
            <NavLink to={page.to} end className={linkClass}>
              {page.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
