// The enterprise feature: the account admin's team page, the header's question "does this person
// administer an account", and the staff page, which loads on first use (React.lazy) so only staff
// download it.
import { lazy } from 'react';

export { EnterprisePage } from './routes/EnterprisePage';
export { useAdministersEnterprise } from './api/team';
export const AdminEnterprisePage = lazy(() => import('./routes/AdminEnterprisePage').then((m) => ({ default: m.AdminEnterprisePage })));
