export { CheckoutPage } from './routes/CheckoutPage';
