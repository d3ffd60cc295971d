export { WireWriteDashboardPage } from './routes/WireWriteDashboardPage';
export { PromoCodesPage } from './routes/PromoCodesPage';
export { UsersPage } from './routes/UsersPage';
export { CertificatesPage } from './routes/CertificatesPage';
