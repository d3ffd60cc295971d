// The back office (/admin/*). Every page is loaded on first use (React.lazy), so visitors never
// download the admin code or its rich-text editor.
import { lazy } from 'react';

export const AdminDashboardPage = lazy(() => import('./routes/AdminDashboardPage').then((m) => ({ default: m.AdminDashboardPage })));
export const ProductManagementPage = lazy(() => import('./routes/ProductManagementPage').then((m) => ({ default: m.ProductManagementPage })));
export const SubscriptionManagementPage = lazy(() =>
  import('./routes/SubscriptionManagementPage').then((m) => ({ default: m.SubscriptionManagementPage })),
);
export const OrderManagementPage = lazy(() => import('./routes/OrderManagementPage').then((m) => ({ default: m.OrderManagementPage })));
export const OrderDetailPage = lazy(() => import('./routes/OrderDetailPage').then((m) => ({ default: m.OrderDetailPage })));
export const PackingSlipPage = lazy(() => import('./routes/PackingSlipPage').then((m) => ({ default: m.PackingSlipPage })));
export const AuditLogPage = lazy(() => import('./routes/AuditLogPage').then((m) => ({ default: m.AuditLogPage })));
export const CustomerManagementPage = lazy(() => import('./routes/CustomerManagementPage').then((m) => ({ default: m.CustomerManagementPage })));
export const CustomerDetailPage = lazy(() => import('./routes/CustomerDetailPage').then((m) => ({ default: m.CustomerDetailPage })));
export const MailOutboxPage = lazy(() => import('./routes/MailOutboxPage').then((m) => ({ default: m.MailOutboxPage })));
export const EnquiriesPage = lazy(() => import('./routes/EnquiriesPage').then((m) => ({ default: m.EnquiriesPage })));
export const InvoiceRegisterPage = lazy(() => import('./routes/InvoiceRegisterPage').then((m) => ({ default: m.InvoiceRegisterPage })));
export const GstReportPage = lazy(() => import('./routes/GstReportPage').then((m) => ({ default: m.GstReportPage })));
/** The frame of the staff pages: side navigation with the to-do counts (components/StaffShell). */
export const StaffShell = lazy(() => import('./components/StaffShell').then((m) => ({ default: m.StaffShell })));
