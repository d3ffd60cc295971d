#pragma once
// The accountant's view of the books (docs/billing.md, "The accountant's view"): the register of
// every tax invoice, credit note and debit note (GET /api/v1/admin/invoices and its CSV export)
// and the GST report's sums (GET /api/v1/admin/reports/gst), read from the same rows with the
// same filter so the report equals the register's sums.
#include "db/database.h"
#include "db/list.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace storefront::billing {

// The register's filter. Dates are New Zealand calendar days, inclusive, as the instants their
// days begin and end (the route turns YYYY-MM-DD into these).
struct RegisterFilter {
    std::optional<std::string> kind;          // invoice | credit_note | debit_note
    std::optional<std::string> q;             // a number, an order number, part of the buyer's name or email
    std::optional<std::string> issuedFrom;    // stored timestamp: issued_at >= it
    std::optional<std::string> issuedBefore;  // stored timestamp: issued_at < it
};

struct RegisterEntry {
    std::string number, kind, issuedAt, currency;
    std::optional<std::string> buyerName, buyerEmail, orderId, orderNumber, subscriptionId, adjustsNumber;
    std::int64_t totalAmount = 0, gstAmount = 0; // positive; the kind says which way
    bool zeroRated = false;
};

// One currency's figures for a period: invoices (and debit notes, which put back what a credit
// note took off) less credit notes.
struct GstTotals {
    std::string currency;
    std::int64_t invoicedAmount = 0, creditedAmount = 0, netAmount = 0, gstAmount = 0, zeroRatedAmount = 0;
    std::int64_t invoiceCount = 0, creditNoteCount = 0;
};

class RegisterRepository {
public:
    // Newest number first.
    db::Page<RegisterEntry> page(Poco::Data::Session& s, const RegisterFilter& filter, db::PageQuery page);
    // Every entry of the filter, newest number first, handed to `onRow` as it is read (keyset pages).
    std::int64_t each(db::Database& db, const RegisterFilter& filter, const std::function<void(const RegisterEntry&)>& onRow);
    // Per currency (alphabetical), for the documents issued in [issuedFrom, issuedBefore).
    std::vector<GstTotals> gst(Poco::Data::Session& s, const std::string& issuedFrom, const std::string& issuedBefore);
};

} // namespace storefront::billing
