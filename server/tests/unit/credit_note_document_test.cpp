// What a credit note's lines say (billing/books/invoice_documents.h; docs/billing.md, "Credit
// notes"): each names what was credited (the product, quantity and amount), never the reason,
// which is the note's own field, shown below the lines.
#include "billing/books/invoice_documents.h"

#include <gtest/gtest.h>

using namespace storefront::billing;

namespace {

NoteTarget invoiceOf(nlohmann::json lines, std::int64_t total) {
    NoteTarget t;
    t.number = "INV-000042";
    t.total = total;
    t.gst = total * 3 / 23;
    t.document = {{"lines", std::move(lines)}, {"currency", "NZD"}, {"zero_rated", false}, {"order_number", "1042"}};
    return t;
}

} // namespace

TEST(CreditNoteDocument, RefundedLinesAreListedByProductQuantityAndAmount) {
    auto target = invoiceOf({{{"description", "USB to RS-232 Serial Cable"}, {"quantity", 2}, {"amount", 9800}}}, 9800);
    auto note = creditNoteDocument(target, std::string("order-1"), 4900, "One was broken",
                                   {{"item-1", "USB to RS-232 Serial Cable", 1, 4900}});
    ASSERT_EQ(note["lines"].size(), 1u);
    EXPECT_EQ(note["lines"][0]["description"], "Refund: USB to RS-232 Serial Cable");
    EXPECT_EQ(note["lines"][0]["quantity"], 1);
    EXPECT_EQ(note["lines"][0]["amount"], 4900);
    EXPECT_EQ(note["reason"], "One was broken");
}

TEST(CreditNoteDocument, AnAmountOnlyRefundNamesWhatTheInvoiceSuppliedNotTheReason) {
    auto one = invoiceOf({{{"description", "USB to RS-232 Serial Cable"}, {"quantity", 2}, {"amount", 9800}}}, 9800);
    // Part of the line: an amount off it.
    auto part = creditNoteDocument(one, std::nullopt, 1000, "Late delivery", {});
    EXPECT_EQ(part["lines"][0]["description"], "Refund: USB to RS-232 Serial Cable");
    EXPECT_EQ(part["lines"][0]["quantity"], 1);
    EXPECT_EQ(part["lines"][0]["amount"], 1000);
    EXPECT_EQ(part["reason"], "Late delivery");
    // The whole line: its quantity.
    auto whole = creditNoteDocument(one, std::nullopt, 9800, "Returned", {});
    EXPECT_EQ(whole["lines"][0]["quantity"], 2);
    // An invoice of several lines: the invoice itself.
    auto several = invoiceOf({{{"description", "Cable"}, {"quantity", 1}, {"amount", 4900}},
                              {{"description", "Adapter"}, {"quantity", 1}, {"amount", 8000}}},
                             12900);
    auto note = creditNoteDocument(several, std::nullopt, 500, "Goodwill", {});
    EXPECT_EQ(note["lines"][0]["description"], "Refund: Tax Invoice INV-000042");
    for (const auto* doc : {&part, &whole, &note})
        for (const auto& line : (*doc)["lines"]) EXPECT_EQ(line["description"].get<std::string>().find("Goodwill"), std::string::npos);
}

TEST(CreditNoteDocument, NoMoreThanIsLeftToCredit) {
    auto target = invoiceOf({{{"description", "Cable"}, {"quantity", 1}, {"amount", 4900}}}, 4900);
    target.credited = 4000;
    EXPECT_THROW(creditNoteDocument(target, std::nullopt, 1000, "", {}), CreditNoteRefused);
    EXPECT_THROW(creditNoteDocument(target, std::nullopt, 0, "", {}), CreditNoteRefused);
}
