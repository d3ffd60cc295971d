// The CSV writer of the staff exports: RFC 4180 quoting, the formula guard, UTF-8 passed through
// unchanged after a byte-order mark, and flushing in pieces.
#include "common/csv.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace csv = storefront::csv;

std::string csvTestField(std::string_view value, bool guard = true) {
    std::string out;
    csv::appendField(out, value, guard);
    return out;
}

TEST(Csv, PlainFieldsAreWrittenAsTheyAre) {
    EXPECT_EQ(csvTestField("ORD-1001"), "ORD-1001");
    EXPECT_EQ(csvTestField(""), "");
    EXPECT_EQ(csvTestField("a b"), "a b");
}

TEST(Csv, CommaQuoteCrAndLfAreQuotedWithQuotesDoubled) {
    EXPECT_EQ(csvTestField("Smith, Jane"), "\"Smith, Jane\"");
    EXPECT_EQ(csvTestField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvTestField("line1\nline2"), "\"line1\nline2\"");
    EXPECT_EQ(csvTestField("line1\r\nline2"), "\"line1\r\nline2\"");
    EXPECT_EQ(csvTestField("\""), "\"\"\"\"");
}

TEST(Csv, FormulaStartsAreGuardedWithAnApostrophe) {
    EXPECT_EQ(csvTestField("=1+2"), "'=1+2");
    EXPECT_EQ(csvTestField("+64 21 000"), "'+64 21 000");
    EXPECT_EQ(csvTestField("-5"), "'-5");
    EXPECT_EQ(csvTestField("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csvTestField("\tx"), "'\tx");
    EXPECT_EQ(csvTestField("\rx"), "\"'\rx\""); // guarded, then quoted for its CR
    EXPECT_EQ(csvTestField("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    // Only the first visible character counts.
    EXPECT_EQ(csvTestField("a=b"), "a=b");
    EXPECT_EQ(csvTestField("x -1"), "x -1");
}

// Issue 32: a spreadsheet skips white space and invisible characters before it decides that a
// cell is a formula, and reads the full-width operators as the ASCII ones.
TEST(Csv, FormulaStartsAfterWhiteSpaceOrInvisibleCharactersAreGuarded) {
    EXPECT_EQ(csvTestField(" =b"), "' =b");
    EXPECT_EQ(csvTestField("   +1"), "'   +1");
    EXPECT_EQ(csvTestField("\t-1"), "'\t-1");
    EXPECT_EQ(csvTestField("\n@SUM(A1)"), "\"'\n@SUM(A1)\"");
    EXPECT_EQ(csvTestField("\r\n=1"), "\"'\r\n=1\"");
    EXPECT_EQ(csvTestField("\xC2\xA0=1"), "'\xC2\xA0=1");               // U+00A0 no-break space
    EXPECT_EQ(csvTestField("\xE2\x80\x8B=1"), "'\xE2\x80\x8B=1");       // U+200B zero-width space
    EXPECT_EQ(csvTestField("\xE2\x80\x8C+1"), "'\xE2\x80\x8C+1");       // U+200C zero-width non-joiner
    EXPECT_EQ(csvTestField("\xE2\x80\x8D-1"), "'\xE2\x80\x8D-1");       // U+200D zero-width joiner
    EXPECT_EQ(csvTestField("\xE2\x81\xA0@x"), "'\xE2\x81\xA0@x");       // U+2060 word joiner
    EXPECT_EQ(csvTestField("\xEF\xBB\xBF=1"), "'\xEF\xBB\xBF=1");       // U+FEFF byte-order mark
    EXPECT_EQ(csvTestField(" \xE2\x80\x8B\xC2\xA0\t=1"), "' \xE2\x80\x8B\xC2\xA0\t=1"); // several
}

TEST(Csv, FullWidthOperatorsAreGuarded) {
    EXPECT_EQ(csvTestField("\xEF\xBC\x9D" "1+2"), "'\xEF\xBC\x9D" "1+2");       // U+FF1D full-width =
    EXPECT_EQ(csvTestField("\xEF\xBC\x8B" "1"), "'\xEF\xBC\x8B" "1");           // U+FF0B full-width +
    EXPECT_EQ(csvTestField("\xEF\xBC\x8D" "1"), "'\xEF\xBC\x8D" "1");           // U+FF0D full-width -
    EXPECT_EQ(csvTestField("\xEF\xBC\xA0" "SUM"), "'\xEF\xBC\xA0" "SUM");       // U+FF20 full-width @
    EXPECT_EQ(csvTestField(" \xEF\xBC\x9D" "1"), "' \xEF\xBC\x9D" "1");         // after a space
}

TEST(Csv, VisibleTextAfterWhiteSpaceIsNotGuarded) {
    EXPECT_EQ(csvTestField(" a"), " a");
    EXPECT_EQ(csvTestField("\xC2\xA0Tane"), "\xC2\xA0Tane");
    EXPECT_EQ(csvTestField("\xE2\x80\x8BTane"), "\xE2\x80\x8BTane");
    EXPECT_EQ(csvTestField("   "), "   ");
    EXPECT_EQ(csvTestField("\xEF\xBC\xA1"), "\xEF\xBC\xA1"); // full-width A
}

TEST(Csv, NumbersAreNotGuarded) {
    EXPECT_EQ(csvTestField("-12.50", false), "-12.50");
    std::string out;
    csv::Writer w([&](std::string_view piece) { out.append(piece); });
    w.number("-0.05").integer(-3).boolean(true).endRow();
    w.finish();
    EXPECT_EQ(out, "-0.05,-3,true\r\n");
}

TEST(Csv, UnicodePassesThroughAfterTheByteOrderMark) {
    std::string out;
    csv::Writer w([&](std::string_view piece) { out.append(piece); });
    w.header({"name", "city"});
    w.text("Tāne Mahuta").text("Ōtautahi, 🥝").endRow();
    w.finish();
    EXPECT_EQ(out, "\xEF\xBB\xBFname,city\r\nTāne Mahuta,\"Ōtautahi, 🥝\"\r\n");
    EXPECT_EQ(w.rows(), 1);
}

TEST(Csv, AnEmptyExportIsTheHeaderOnly) {
    std::string out;
    csv::Writer w([&](std::string_view piece) { out.append(piece); });
    w.header({"order_number", "total"});
    w.finish();
    EXPECT_EQ(out, "\xEF\xBB\xBForder_number,total\r\n");
    EXPECT_EQ(w.rows(), 0);
}

TEST(Csv, AbsentCellsAreEmptyAndTimesAreNewZealandTimeWithTheOffset) {
    std::string out;
    csv::Writer w([&](std::string_view piece) { out.append(piece); });
    const storefront::nz::Instant winter{std::chrono::seconds(1783000000)}; // 2026-07-02 (NZST)
    w.text(std::optional<std::string>()).time(std::nullopt).time(winter).endRow();
    w.finish();
    EXPECT_EQ(out, ",," + storefront::nz::formatWithOffset(winter) + "\r\n");
    EXPECT_NE(out.find("+12:00"), std::string::npos);
}

TEST(Csv, FlushesInPiecesOnceTheBufferIsFull) {
    std::vector<std::string> pieces;
    csv::Writer w([&](std::string_view piece) { pieces.emplace_back(piece); }, 16);
    for (int i = 0; i < 10; ++i) w.text("abcdef").endRow(); // 8 bytes a row
    w.finish();
    std::string all;
    for (const auto& p : pieces) {
        EXPECT_LE(p.size(), 24u);
        all += p;
    }
    EXPECT_EQ(pieces.size(), 5u);
    EXPECT_EQ(w.rows(), 10);
    EXPECT_EQ(all.size(), 80u);
}

} // namespace
