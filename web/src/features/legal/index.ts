export { TermsPage } from './TermsPage';
export { PrivacyPage } from './PrivacyPage';
export { LEGAL_LAST_UPDATED } from './LegalPage';
