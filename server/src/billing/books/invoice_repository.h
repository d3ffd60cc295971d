#pragma once
// Tax invoices, credit and debit notes (docs/billing.md, "Tax invoices"): the SQL. Issued inside the
// payment's (or refund's) transaction under the next number of one gapless sequence, stored as a
// snapshot of what was issued (built by the issuing rules, billing/books/invoice_documents.h), and
// read back by number or as the customer's list.
#include "billing/books/invoice_documents.h"
#include "billing/books/invoice_settings.h"
#include "db/database.h"
#include "db/list.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace storefront::billing {

struct InvoiceSummary {
    std::string number, kind, issuedAt, currency;
    std::int64_t totalAmount = 0, gstAmount = 0;
    std::optional<std::string> orderId;
};

// The lines a mail (order confirmation, renewal receipt) gives its tax invoice: the document's
// address, and "GST content: $1.96 NZD" or "GST: $0.00 (zero-rated export)".
std::string invoiceMailText(const InvoiceSummary& invoice, const std::string& publicUrl);

struct StoredInvoice {
    std::optional<std::string> userId;
    nlohmann::json document; // the JSON of GET /api/v1/account/invoices/{number}
};

class InvoiceRepository {
public:
    explicit InvoiceRepository(InvoiceSettings settings) : settings_(std::move(settings)) {}

    // The invoice a credit note adjusts, as read for it.
    struct CreditTarget {
        std::string id;
        std::optional<std::string> userId, subscriptionId;
        NoteTarget target;
    };

    // Issues the invoice under the next number, or finds the one issued for the same sourceKey;
    // returns its number; `issued` (when given) tells whether it is new. Call inside the payment's
    // transaction.
    std::string issue(db::Tx& tx, const NewInvoice& invoice, bool* issued = nullptr);
    // The invoice of a paid order (its lines, buyer and total as they are now), under `sourceKey`
    // (default "order:<id>"); nullopt for an unknown order.
    std::optional<std::string> issueForOrder(db::Tx& tx, const std::string& orderId,
                                             const std::optional<std::string>& sourceKey = std::nullopt);
    // A credit note adjusting the order's invoice by `amount` (minor units, GST-inclusive), once
    // per refund id, listing the refunded `lines` when there are some; its GST is cumulative
    // (creditNoteGst). Returns its number (the existing one when that refund has one already).
    // Throws CreditNoteRefused. Call inside the refund's transaction.
    std::string issueCreditNote(db::Tx& tx, const std::string& orderId, const std::string& refundId, std::int64_t amount,
                                const std::string& reason, const std::vector<CreditedLine>& lines = {});
    // A credit note adjusting the subscription invoice issued under `invoiceSourceKey`
    // ("invoice:<provider>:<invoice id>") by `amount`, once per refund id, with the same cumulative
    // GST rule. Throws CreditNoteRefused.
    std::string issueSubscriptionCreditNote(db::Tx& tx, const std::string& invoiceSourceKey, const std::string& refundId,
                                            std::int64_t amount, const std::string& reason);
    // A debit note reversing the credit note of refund `refundId` (a refund that failed at the
    // provider after its note was issued): the same amount and GST, adjusting the same invoice,
    // once per refund. Returns its number; nullopt when the refund has no credit note.
    std::optional<std::string> issueDebitNote(db::Tx& tx, const std::string& refundId, const std::string& reason);
    // An invoice issued for a subscription's first payment, before its checkout completed, is the
    // order's invoice: links it to the order (once).
    void linkOrder(db::Tx& tx, const std::string& sourceKey, const std::string& orderId);
    // The buyer's email and name from the user's account (when userId is set).
    void fillBuyer(db::Tx& tx, NewInvoice& invoice);

    std::optional<InvoiceSummary> summary(db::Tx& tx, const std::string& number);
    // The invoice (not credit note) of an order.
    std::optional<InvoiceSummary> forOrder(db::Tx& tx, const std::string& orderId);
    std::vector<InvoiceSummary> forOrder(Poco::Data::Session& s, const std::string& orderId); // invoice and credit notes
    std::optional<StoredInvoice> find(Poco::Data::Session& s, const std::string& number);
    // A page of the user's invoices and credit notes, newest first (the list kit, db/list.h).
    db::Page<InvoiceSummary> pageForUser(Poco::Data::Session& s, const std::string& userId, db::PageQuery page);

    const InvoiceSettings& settings() const { return settings_; }

private:
    std::string store(db::Tx& tx, const std::string& sourceKey, const std::string& kind, nlohmann::json document,
                      const std::optional<std::string>& userId, const std::optional<std::string>& orderId,
                      const std::optional<std::string>& adjustsId,
                      const std::optional<std::string>& subscriptionId = std::nullopt);
    bool zeroRated(const std::string& currency) const;
    std::string creditNoteFor(db::Tx& tx, std::optional<CreditTarget> row, const std::string& key,
                              const std::optional<std::string>& orderId, std::int64_t amount, const std::string& reason,
                              const std::vector<CreditedLine>& lines);

    InvoiceSettings settings_;
};

} // namespace storefront::billing
