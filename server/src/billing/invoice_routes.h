#pragma once
// HTTP for tax invoices (docs/billing.md, "Tax invoices"): the customer's list and one invoice
// (or credit note) by number, readable by its owner and by staff; anyone else is told 404. Staff:
// the register of every document, its CSV export and the GST report (docs/billing.md, "The
// accountant's view").
#include "billing/books/invoice_repository.h"
#include "db/database.h"
#include "http/router.h"

namespace storefront::billing {

void registerInvoiceRoutes(http::Router& router, db::Database& db, InvoiceRepository& invoices);

} // namespace storefront::billing
