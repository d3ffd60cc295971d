#pragma once
// New Zealand GST tax invoices: the pure rules (docs/billing.md, "Tax invoices"). GST content of
// a GST-inclusive amount, the IRD/GST number check digit, invoice numbers and the New Zealand
// issue date. The SQL and the issuing live in billing/books/invoice_repository.h.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::billing {

// The GST content of a GST-inclusive amount of a standard-rated supply, in minor units: 3/23 of
// it, rounded to the cent half-up (half a cent goes up; for a negative amount, away from zero).
std::int64_t gstContent(std::int64_t inclusiveAmount);

// The GST a credit note credits, cumulatively: GST(credited after) − GST already credited, where
// GST(x) is the invoice's own rule (gstContent) and GST(the whole invoice) is exactly what the
// invoice charged. So an invoice's credit notes never credit more GST than it charged, however
// small and many they are (fifty 4 c refunds of a $49.00 invoice credit 26 c in all, not 50 c),
// and a full refund credits exactly the invoice's GST. Never negative.
std::int64_t creditNoteGst(std::int64_t invoiceTotal, std::int64_t invoiceGst, std::int64_t creditedBefore,
                           std::int64_t gstCreditedBefore, std::int64_t amount);

// A GST (IRD) number checked with Inland Revenue's mod-11 check digit: digits with optional
// hyphens or spaces, 8 digits padded to 9, in 10-000-000 .. 150-000-000. Returns it formatted
// "49-091-850" / "136-410-132", or nullopt when it is not a valid number.
std::optional<std::string> normalizeGstNumber(std::string_view text);

// "INV-" + 123 -> "INV-000123" (at least six digits; more once the sequence passes 999999).
std::string invoiceNumber(const std::string& prefix, std::int64_t sequence);

// The calendar date (YYYY-MM-DD) in New Zealand of a stored UTC timestamp.
std::string nzDate(const std::string& isoTimestamp);

// The currencies the company treats as zero-rated exports: "AUD, usd" -> {"AUD", "USD"}.
// Throws std::invalid_argument for anything but three-letter codes.
std::vector<std::string> parseCurrencyList(std::string_view text);

} // namespace storefront::billing
