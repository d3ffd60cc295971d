import { NavLink, type NavLinkProps } from 'react-router';
import { useMe } from '@/lib/me';

/**
 * The header's Enterprise link, shown only to someone who administers an enterprise account. The
 * signed-in shell's one call (/api/v1/account/me) says so; nobody is asked for an account they
 * do not have.
 */
export function EnterpriseNavItem({ className }: { className: NavLinkProps['className'] }) {
  const me = useMe();
  if (me.data?.enterprise?.role !== 'admin') return null;
  return (
    <li>
      <NavLink to="/enterprise" className={className}>
        Enterprise
      </NavLink>
    </li>
  );
}
