// Company facts shown across the site.
export const COMPANY_NAME = 'Signalcraft';
export const COMPANY_LEGAL_NAME = 'Signalcraft Limited';
export const SALES_EMAIL = 'sales@signalcraft.co.nz';
export const SUPPORT_EMAIL = 'support@signalcraft.co.nz';
