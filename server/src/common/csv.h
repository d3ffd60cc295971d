#pragma once
// The one CSV writer of the staff exports (docs/backoffice.md, "Exports"): RFC 4180 (fields
// separated by commas, rows ended by CRLF, a field that holds a comma, a double quote, CR or LF
// quoted with its quotes doubled), UTF-8 with a byte-order mark first (Excel reads a CSV without one
// in the machine's legacy code page, so "Māori" would arrive as "MÄori"; LibreOffice, Numbers,
// Google Sheets and Python's utf-8-sig skip it), and the spreadsheet formula guard: a text cell
// whose first character that is not white space or invisible (space, tab, CR, LF, U+00A0, U+200B to
// U+200D, U+2060, U+FEFF) is =, +, -, @ or a full-width ＝ ＋ － ＠, or that begins with a tab or CR,
// gets a leading apostrophe, so `=HYPERLINK(...)` typed as a name is shown, never run (OWASP "CSV
// injection").
//
// Pure: rows are appended to a buffer, and `flush` hands the buffer on whenever it passes
// `flushBytes` (the server sends it as one chunk of a streamed answer) and at finish().
//
//   csv::Writer out(send);
//   out.header({"order_number", "total", "currency"});
//   out.text(number).number(amount).text(currency).endRow();
//   out.finish();
#include "common/nz_time.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::csv {

// The UTF-8 byte-order mark written before the header.
inline constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Whether a spreadsheet would read `value` as a formula (the guard above).
bool looksLikeFormula(std::string_view value);
// Appends `value` as one field: guarded (a leading ' for a formula) when `guard`, then quoted when
// it holds a comma, a quote, CR or LF.
void appendField(std::string& out, std::string_view value, bool guard = true);

class Writer {
public:
    using Flush = std::function<void(std::string_view)>;
    explicit Writer(Flush flush, std::size_t flushBytes = 64 * 1024);

    // The byte-order mark and the header row (counted apart from the rows).
    void header(const std::vector<std::string>& names);

    // One cell of the current row. text: guarded and quoted as needed; absent is an empty cell.
    Writer& text(std::string_view value);
    Writer& text(const std::optional<std::string>& value);
    Writer& text(const std::string& value) { return text(std::string_view(value)); }
    Writer& text(const char* value) { return text(std::string_view(value)); }
    // A number the exporter formatted itself (digits, a sign, a point): never guarded, so a
    // negative amount stays a number.
    Writer& number(std::string_view value);
    Writer& integer(std::int64_t value);
    Writer& boolean(bool value) { return number(value ? "true" : "false"); }
    // New Zealand time with its offset ("2026-04-05T02:30:00+12:00"); absent is an empty cell.
    Writer& time(std::optional<nz::Instant> at);
    // Ends the row (CRLF); flushes when the buffer is full.
    void endRow();
    // Hands on what is left.
    void finish();

    std::int64_t rows() const { return rows_; }

private:
    void separate();
    Flush flush_;
    std::size_t flushBytes_;
    std::string buffer_;
    bool rowStarted_ = false;
    std::int64_t rows_ = 0;
};

} // namespace storefront::csv
