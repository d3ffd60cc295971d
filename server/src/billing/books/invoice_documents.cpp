#include "billing/books/invoice_documents.h"

#include "billing/books/tax_invoice.h"

namespace storefront::billing {

namespace {

nlohmann::json textOrNull(const std::optional<std::string>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

const char* gstNote(bool zeroRated) { return zeroRated ? "Zero-rated supply (exported): GST 0%" : "Total includes GST at 15%"; }

// The one line of a credit note for an amount that named no lines: what the invoice supplied (its
// one line; the invoice itself when it had several), with the invoice's quantity when the whole
// line is credited, else 1 (an amount off it). The reason is the note's own field, shown below.
nlohmann::json amountLine(const NoteTarget& target, std::int64_t amount) {
    const auto lines = target.document.value("lines", nlohmann::json::array());
    if (lines.size() == 1 && lines[0].is_object()) {
        const auto& only = lines[0];
        const bool whole = only.value("amount", std::int64_t{0}) == amount;
        return {{"description", "Refund: " + only.value("description", std::string("Tax Invoice " + target.number))},
                {"quantity", whole ? only.value("quantity", std::int64_t{1}) : 1},
                {"amount", amount}};
    }
    return {{"description", "Refund: Tax Invoice " + target.number}, {"quantity", 1}, {"amount", amount}};
}

} // namespace

nlohmann::json invoiceDocument(const NewInvoice& n, bool zeroRated) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& l : n.lines) lines.push_back({{"description", l.description}, {"quantity", l.quantity}, {"amount", l.amount}});
    return {
        {"title", "Tax Invoice"},
        {"buyer", {{"name", textOrNull(n.buyerName)}, {"email", textOrNull(n.buyerEmail)}, {"address", n.buyerAddress}}},
        {"lines", std::move(lines)},
        {"currency", n.currency},
        {"total_amount", n.totalAmount},
        {"gst_amount", zeroRated ? 0 : gstContent(n.totalAmount)},
        {"zero_rated", zeroRated},
        {"gst_note", gstNote(zeroRated)},
        {"order_id", textOrNull(n.orderId)},
        {"order_number", textOrNull(n.orderNumber)},
        {"adjusts", nullptr},
        {"reason", nullptr},
    };
}

nlohmann::json creditNoteDocument(const NoteTarget& target, const std::optional<std::string>& orderId, std::int64_t amount,
                                  const std::string& reason, const std::vector<CreditedLine>& lines) {
    if (amount <= 0) throw CreditNoteRefused("A credit note's amount must be more than zero.");
    if (amount > target.total - target.credited)
        throw CreditNoteRefused("The amount is more than is left to credit on " + target.number + ".");
    const bool zero = target.document.value("zero_rated", false);
    // The refunded lines when the refund named them and their amounts make up the whole note;
    // otherwise one line (what was refunded is still listed, as `refunded_lines`).
    nlohmann::json noteLines = nlohmann::json::array();
    nlohmann::json refundedLines = nlohmann::json::array();
    std::int64_t linesTotal = 0;
    for (const auto& l : lines) {
        linesTotal += l.amount;
        noteLines.push_back({{"description", "Refund: " + l.description}, {"quantity", l.quantity}, {"amount", l.amount}});
        refundedLines.push_back({{"order_item_id", l.orderItemId}, {"description", l.description}, {"quantity", l.quantity}});
    }
    if (lines.empty() || linesTotal != amount) noteLines = nlohmann::json::array({amountLine(target, amount)});
    // Cumulative GST (docs/billing.md, "Credit notes"): never more, in all, than the invoice charged.
    const std::int64_t gst = zero ? 0 : creditNoteGst(target.total, target.gst, target.credited, target.gstCredited, amount);
    return {
        {"title", "Credit Note"},
        {"buyer", target.document.value("buyer", nlohmann::json::object())},
        {"lines", noteLines},
        {"refunded_lines", refundedLines},
        {"currency", target.document.value("currency", std::string("NZD"))},
        {"total_amount", amount},
        {"gst_amount", gst},
        {"zero_rated", zero},
        {"gst_note", gstNote(zero)},
        {"order_id", orderId ? nlohmann::json(*orderId) : nlohmann::json()},
        {"order_number", target.document.value("order_number", nlohmann::json())},
        {"adjusts", target.number},
        {"reason", reason.empty() ? nlohmann::json() : nlohmann::json(reason)},
    };
}

nlohmann::json debitNoteDocument(const nlohmann::json& creditNote, const std::string& creditNoteNumber, const std::string& reason) {
    auto document = creditNote;
    document["title"] = "Debit Note";
    document["lines"] = nlohmann::json::array({{{"description", "Reverses credit note " + creditNoteNumber + ": " + reason},
                                                {"quantity", 1},
                                                {"amount", creditNote.value("total_amount", std::int64_t{0})}}});
    document["refunded_lines"] = nlohmann::json::array();
    document["reverses"] = creditNoteNumber;
    document["reason"] = reason;
    return document; // `adjusts` stays the invoice the credit note adjusted: the debit note puts back what it took off
}

} // namespace storefront::billing
