// The frame of every staff page (/admin/*, but the printable packing slip): the side navigation
// "Staff" with the current page marked (aria-current, from NavLink), the to-do counts beside
// Orders, Enquiries and Mail (one GET /api/v1/admin/todo, reloaded on every staff route change),
// and the page beside it. Below 1024 px the navigation folds behind a menu button; Escape closes
// it and hands focus back to the button, as does choosing a page.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { todoBadgeWords, useStaffTodo, type StaffTodo } from '../api/getTodo';

interface StaffLink {
  to: string;
  label: string;
  end?: boolean;
  count?: keyof StaffTodo;
}

export const STAFF_LINKS: readonly StaffLink[] = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/orders', label: 'Orders', count: 'orders_to_ship' },
  { to: '/admin/invoices', label: 'Invoices' },
  { to: '/admin/subscriptions', label: 'Subscriptions' },
  { to: '/admin/customers', label: 'Customers' },
  { to: '/admin/products', label: 'Products' },
  { to: '/admin/enterprise', label: 'Enterprise' },
  { to: '/admin/wirewrite', label: 'WireWrite' },
  { to: '/admin/mail', label: 'Mail', count: 'mail_failed' },
  { to: '/admin/enquiries', label: 'Enquiries', count: 'enquiries_open' },
  { to: '/admin/audit', label: 'Audit log' },
];

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
  }`;

/** The navigation's list; a count of 0 (or none yet) shows nothing. */
export function StaffNavList({ todo, onChoose }: { todo: StaffTodo | undefined; onChoose?: () => void }) {
  return (
    <ul className="space-y-1">
      {STAFF_LINKS.map((link) => {
        const n = link.count && todo ? todo[link.count] : 0;
        return (
          <li key={link.to}>
            <NavLink to={link.to} end={link.end} className={linkClass} onClick={onChoose}>
              <span>{link.label}</span>
              {/* The count is part of the name ("Orders 3 to ship"), the words after it unseen. */}
              {link.count && n > 0 ? (
                <>
                  {' '}
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                    {n.toLocaleString('en-NZ')}{' '}
                    <span className="sr-only">{todoBadgeWords(link.count)}</span>
                  </span>
                </>
              ) : null}
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}

export function StaffShell() {
  const todo = useStaffTodo();
  const { refetch } = todo;
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const navId = useId();
  const first = useRef(true);

  // A route change reloads the counts (the first render's query loads them anyway).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void refetch();
  }, [location.pathname, location.search, refetch]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  };

  return (
    <div className="mx-auto flex max-w-7xl flex-col px-4 sm:px-6 lg:flex-row lg:gap-8">
      <div className="pt-4 lg:w-56 lg:shrink-0 lg:pt-10" onKeyDown={onKeyDown}>
        <button
          ref={buttonRef}
          type="button"
          className="btn-secondary lg:hidden"
          aria-expanded={open}
          aria-controls={navId}
          onClick={() => setOpen((was) => !was)}
        >
          Staff menu
        </button>
        <nav id={navId} aria-label="Staff" className={`${open ? 'mt-2 block' : 'hidden'} lg:sticky lg:top-24 lg:block`}>
          <StaffNavList todo={todo.data} onChoose={open ? close : undefined} />
        </nav>
      </div>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
