// The staff page (/admin/enterprise), a separate entry so the admin bundle is loaded only by staff.
export { AdminEnterprisePage as default } from './routes/AdminEnterprisePage';
