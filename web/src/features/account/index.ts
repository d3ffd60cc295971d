export { DashboardPage } from './routes/DashboardPage';
export { TestSubscriptionPage } from './routes/TestSubscriptionPage';
