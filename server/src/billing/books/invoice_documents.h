#pragma once
// What a tax invoice, a credit note and a debit note say, and when a note may be issued
// (docs/billing.md, "Tax invoices", "Debit notes"): the books' issuing rules as pure functions.
// InvoiceRepository reads what they need, calls them, and stores what they build under the next
// number; nothing here touches the database.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace storefront::billing {

struct InvoiceLine {
    std::string description;
    std::int64_t quantity = 1;
    std::int64_t amount = 0; // the line's GST-inclusive amount (quantity x unit price)
};

// What a payment makes an invoice of.
struct NewInvoice {
    std::string sourceKey; // idempotency: "order:<id>", "invoice:<provider>:<id>"
    std::optional<std::string> userId, orderId, orderNumber;
    std::optional<std::string> subscriptionId; // a subscription's invoice: the register names it
    std::optional<std::string> buyerName, buyerEmail;
    nlohmann::json buyerAddress; // the order's shipping address snapshot (billing/orders/shipping.h), or null
    std::string currency;
    std::int64_t totalAmount = 0;
    std::vector<InvoiceLine> lines;
};

// A credit note the refund cannot have: no invoice for the order, an amount of zero or less, or
// more than the invoice's total less what its notes have credited already.
class CreditNoteRefused : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// A refunded line as the credit note lists it.
struct CreditedLine {
    std::string orderItemId, description;
    std::int64_t quantity = 0, amount = 0;
};

// The invoice a note adjusts, and what its notes have credited so far (credit notes less debit notes).
struct NoteTarget {
    std::string number;
    std::int64_t total = 0, gst = 0;
    nlohmann::json document;
    std::int64_t credited = 0, gstCredited = 0;
};

// The invoice's document (number, issue date and supplier are added when it is stored). A
// zero-rated currency (an export) has GST 0, else GST is 3/23 of the total.
nlohmann::json invoiceDocument(const NewInvoice& invoice, bool zeroRated);

// The credit note of a refund of `amount`, listing the refunded `lines` ("Refund: {product}", the
// quantity and amount credited) when their amounts make up the note; else one line naming what the
// invoice supplied (the lines kept as refunded_lines). The reason is the note's `reason`, never a
// line. Its GST is cumulative
// (creditNoteGst): never more, in all, than the invoice charged. Throws CreditNoteRefused.
nlohmann::json creditNoteDocument(const NoteTarget& invoice, const std::optional<std::string>& orderId, std::int64_t amount,
                                  const std::string& reason, const std::vector<CreditedLine>& lines);

// The debit note reversing `creditNote` (its document, number, amount and GST exactly).
nlohmann::json debitNoteDocument(const nlohmann::json& creditNote, const std::string& creditNoteNumber, const std::string& reason);

} // namespace storefront::billing
