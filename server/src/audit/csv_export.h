#pragma once
// A staff list exported as CSV (docs/backoffice.md, "Exports"): the answer streamed as it is read
// (http::Response::stream, chunked), written by the one CSV writer (common/csv.h), and its audit
// entry. The entry ("list.exported", target "export" <list>) is written when the stream ends, in a
// transaction of its own (an export changes nothing, so there is no change to share it with): who,
// which list, which filters and sort, how many rows, and whether it finished. A download the
// client abandons, or one the database fails part-way, is recorded the same way with
// "completed": false and the rows written before it stopped.
#include "audit/audit.h"
#include "common/csv.h"
#include "common/nz_time.h"
#include "db/database.h"
#include "http/response.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace storefront::audit {

struct CsvExport {
    std::string list;                    // "orders": the entry's target id and the file name's stem
    nlohmann::json filters = nlohmann::json::object(); // the list's filters, search and sort as asked
    std::vector<std::string> header;     // the column names
};

// Answers 200 text/csv with Content-Disposition attachment; filename="<list>-<NZ date>.csv", then
// the header and the rows `produce` writes (it runs while the answer is sent: it must own what it
// uses), then records the audit entry.
void streamCsv(http::Response& res, db::Database& db, Actor actor, CsvExport what,
               std::function<void(csv::Writer&)> produce);

// The filters given (name, value when set) as CsvExport::filters: {"status": "paid", "q": "aroha"}.
nlohmann::json filtersOf(std::initializer_list<std::pair<const char*, std::optional<std::string>>> given);

// A stored timestamp (ISO-8601 UTC text, db::Row::timestamp) as an instant for csv::Writer::time.
std::optional<nz::Instant> instantOf(const std::optional<std::string>& stored);

} // namespace storefront::audit
