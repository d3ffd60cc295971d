export { ContactSalesDialog, CONTACT_AUTO_CLOSE_MS, CONTACT_ERROR_TEXT, CONTACT_SUCCESS_TEXT } from './ContactSalesDialog';
export { CONTACT_LIMITS, SALES_EMAIL, submitContact } from './api';
