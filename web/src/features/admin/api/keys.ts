// Cache keys of the back office. Every admin write invalidates what it changed (and, for the
// catalogue, the public product queries too, so the storefront shows the change at once).
import type { ListQuery } from '@/lib/list';

export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  /** The staff to-do counts (the side navigation and the dashboard). */
  todo: () => [...adminKeys.all, 'todo'] as const,
  series: () => [...adminKeys.all, 'stats', 'series'] as const,
  products: () => [...adminKeys.all, 'products'] as const,
  productList: (params: ListQuery) => [...adminKeys.products(), params] as const,
  images: () => [...adminKeys.all, 'images'] as const,
  subscriptionLists: () => [...adminKeys.all, 'subscriptions'] as const,
  subscriptions: (params: ListQuery) => [...adminKeys.subscriptionLists(), params] as const,
  orders: () => [...adminKeys.all, 'orders'] as const,
  orderList: (params: ListQuery) => [...adminKeys.orders(), 'list', params] as const,
  order: (id: string) => [...adminKeys.orders(), 'one', id] as const,
  audit: (params: ListQuery) => [...adminKeys.all, 'audit', params] as const,
  customers: () => [...adminKeys.all, 'customers'] as const,
  customerList: (params: ListQuery) => [...adminKeys.customers(), 'list', params] as const,
  customer: (id: string) => [...adminKeys.customers(), 'one', id] as const,
  mail: () => [...adminKeys.all, 'mail'] as const,
  mailList: (params: ListQuery) => [...adminKeys.mail(), params] as const,
  enquiries: () => [...adminKeys.all, 'enquiries'] as const,
  enquiryList: (params: ListQuery) => [...adminKeys.enquiries(), params] as const,
  /** The accountant's view: the invoice register and the GST report. */
  books: () => [...adminKeys.all, 'books'] as const,
  invoiceList: (params: ListQuery) => [...adminKeys.books(), 'invoices', params] as const,
  gstReport: (from: string, to: string) => [...adminKeys.books(), 'gst', from, to] as const,
};
