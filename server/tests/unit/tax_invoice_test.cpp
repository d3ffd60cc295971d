// GST content, the IRD/GST number check digit, invoice numbers and New Zealand issue dates
// (billing/books/tax_invoice.h; docs/billing.md, "Tax invoices").
#include "billing/books/tax_invoice.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace storefront::billing;

TEST(GstContent, IsThreeTwentyThirdsOfTheInclusiveAmount) {
    EXPECT_EQ(gstContent(0), 0);
    EXPECT_EQ(gstContent(2300), 300);     // $23.00 -> $3.00 exactly
    EXPECT_EQ(gstContent(11500), 1500);   // $115.00 -> $15.00
    EXPECT_EQ(gstContent(1500), 196);     // $15.00 -> 195.65 cents -> $1.96
    EXPECT_EQ(gstContent(900), 117);      // $9.00 -> 117.39 -> $1.17
    EXPECT_EQ(gstContent(2500), 326);     // $25.00 -> 326.09 -> $3.26
    EXPECT_EQ(gstContent(99999999), 13043478); // 13043478.13
}

TEST(GstContent, IsTheNearestCentForEveryAmount) {
    // Independent of the formula: the result is within half a cent of 3a/23, i.e.
    // |23 g - 3a| <= 23/2. 3a/23 is never exactly half a cent (6a would be an odd multiple of 23),
    // so "half up" and "nearest" are the same rule.
    for (std::int64_t a = 0; a < 200000; ++a) {
        const std::int64_t g = gstContent(a);
        ASSERT_LE(2 * std::llabs(23 * g - 3 * a), 23) << a;
    }
}

TEST(GstContent, RoundingEdges) {
    // 3a mod 23 = 11 is 0.478 of a cent (down), 12 is 0.522 (up).
    EXPECT_EQ(gstContent(4), 1);     // 12/23 = 0.522 -> 1
    EXPECT_EQ(gstContent(11), 1);    // 33/23 = 1.435 -> 1
    EXPECT_EQ(gstContent(19), 2);    // 57/23 = 2.478 -> 2
    EXPECT_EQ(gstContent(27), 4);    // 81/23 = 3.522 -> 4
    EXPECT_EQ(gstContent(1), 0);     // 0.130 -> 0
    EXPECT_EQ(gstContent(3), 0);     // 0.391 -> 0
    EXPECT_EQ(gstContent(-1500), -196); // a negative amount mirrors a positive one
}

TEST(GstNumber, KnownValidNumbersFromInlandRevenue) {
    EXPECT_EQ(normalizeGstNumber("49091850"), "49-091-850");
    EXPECT_EQ(normalizeGstNumber("49-091-850"), "49-091-850");
    EXPECT_EQ(normalizeGstNumber("049 091 850"), "49-091-850");
    EXPECT_EQ(normalizeGstNumber("35901981"), "35-901-981");
    EXPECT_EQ(normalizeGstNumber("49098576"), "49-098-576");
    EXPECT_EQ(normalizeGstNumber("136410132"), "136-410-132"); // needs the secondary weights
}

TEST(GstNumber, RefusesWrongCheckDigitsRangesAndShapes) {
    EXPECT_FALSE(normalizeGstNumber("136410133")); // the IRD's own invalid example
    EXPECT_FALSE(normalizeGstNumber("49091851"));
    EXPECT_FALSE(normalizeGstNumber("9125568"));   // seven digits (below the range)
    EXPECT_FALSE(normalizeGstNumber("9999999"));
    EXPECT_FALSE(normalizeGstNumber("150000001")); // above 150-000-000
    EXPECT_FALSE(normalizeGstNumber("1234567890"));
    EXPECT_FALSE(normalizeGstNumber(""));
    EXPECT_FALSE(normalizeGstNumber("49.091.850"));
    EXPECT_FALSE(normalizeGstNumber("GST 49091850"));
}

TEST(InvoiceNumbers, AreThePrefixAndSixDigitsAtLeast) {
    EXPECT_EQ(invoiceNumber("INV-", 123), "INV-000123");
    EXPECT_EQ(invoiceNumber("INV-", 1), "INV-000001");
    EXPECT_EQ(invoiceNumber("SF/", 999999), "SF/999999");
    EXPECT_EQ(invoiceNumber("INV-", 1234567), "INV-1234567");
}

TEST(InvoiceDates, AreNewZealandCalendarDays) {
    EXPECT_EQ(nzDate("2026-11-26T10:59:59.000Z"), "2026-11-26"); // 23:59:59 NZDT
    EXPECT_EQ(nzDate("2026-11-26T11:00:00.000Z"), "2026-11-27"); // midnight NZDT
    EXPECT_EQ(nzDate("2026-06-30T11:59:59.000Z"), "2026-06-30"); // 23:59:59 NZST
    EXPECT_EQ(nzDate("2026-06-30T12:00:00.000Z"), "2026-07-01"); // the new tax year's first day
    EXPECT_EQ(nzDate("2024-02-28T12:00:00.000Z"), "2024-02-29");
}

TEST(ZeroRatedCurrencies, AreAListOfCodes) {
    EXPECT_EQ(parseCurrencyList("AUD,USD"), (std::vector<std::string>{"AUD", "USD"}));
    EXPECT_EQ(parseCurrencyList(" aud , usd ,"), (std::vector<std::string>{"AUD", "USD"}));
    EXPECT_TRUE(parseCurrencyList("").empty());
    EXPECT_THROW(parseCurrencyList("AUD,DOLLAR"), std::invalid_argument);
    EXPECT_THROW(parseCurrencyList("A1D"), std::invalid_argument);
}

TEST(CreditNoteGst, IsCumulativeSoSmallNotesNeverCreditMoreThanTheInvoiceCharged) {
    // A $49.00 invoice charges 639 c of GST (3/23 of 4900 c, rounded).
    const std::int64_t total = 4900, gst = gstContent(4900);
    ASSERT_EQ(gst, 639);
    std::int64_t credited = 0, gstCredited = 0;
    for (int i = 0; i < 50; ++i) {
        const auto note = creditNoteGst(total, gst, credited, gstCredited, 4);
        EXPECT_GE(note, 0);
        credited += 4;
        gstCredited += note;
    }
    EXPECT_EQ(credited, 200);
    EXPECT_EQ(gstCredited, 26); // 3/23 of 200 c, as one note would; per-note rounding gave 50 c
    EXPECT_EQ(gstCredited, gstContent(200));
    // The rest in one note: exactly what the invoice charged, in all.
    gstCredited += creditNoteGst(total, gst, credited, gstCredited, total - credited);
    EXPECT_EQ(gstCredited, gst);
}

TEST(CreditNoteGst, AFullRefundCreditsExactlyTheInvoicesGstAndNothingGoesNegative) {
    EXPECT_EQ(creditNoteGst(9800, 1278, 0, 0, 9800), 1278);
    // The invoice's own figure wins when the whole total is credited.
    EXPECT_EQ(creditNoteGst(9800, 1200, 0, 0, 9800), 1200);
    // Earlier notes that credited too much (before this rule): the next credits nothing more.
    EXPECT_EQ(creditNoteGst(4900, 639, 200, 50, 4), 0);
    EXPECT_EQ(creditNoteGst(4900, 639, 4800, 600, 100), 39);
}

