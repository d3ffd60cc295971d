import { NavLink, type NavLinkProps } from 'react-router';
import { useAdministersEnterprise } from '../api/team';

/** The header's Enterprise link, shown only to someone who administers an enterprise account. */
export function EnterpriseNavItem({ className }: { className: NavLinkProps['className'] }) {
  const administersEnterprise = useAdministersEnterprise();
  if (!administersEnterprise) return null;
  return (
    <li>
      <NavLink to="/enterprise" className={className}>
        Enterprise
      </NavLink>
    </li>
  );
}
