// The enterprise feature: the account admin's team page and the header's question "does this
// person administer an account". The staff page is its own entry (./admin), loaded lazily.
export { EnterprisePage } from './routes/EnterprisePage';
export { useAdministersEnterprise } from './api/team';
