#include "audit/csv_export.h"

#include <Poco/Logger.h>

#include <chrono>
#include <cstdio>
#include <exception>

namespace storefront::audit {

namespace {

void recordExport(db::Database& db, const Actor& actor, const CsvExport& what, std::int64_t rows, bool completed) {
    db.write([&](db::Tx& tx) {
        Entry entry{"list.exported", "export", what.list, nullptr, nullptr, nlohmann::json::object()};
        entry.detail = {{"list", what.list}, {"filters", what.filters}, {"rows", rows}, {"completed", completed}};
        record(tx, actor, entry);
    });
}

} // namespace

void streamCsv(http::Response& res, db::Database& db, Actor actor, CsvExport what, std::function<void(csv::Writer&)> produce) {
    const auto today = nz::dateOf(nz::instantOf(db.clock().now()));
    char stamp[16];
    std::snprintf(stamp, sizeof stamp, "%04d-%02u-%02u", static_cast<int>(today.year()), static_cast<unsigned>(today.month()),
                  static_cast<unsigned>(today.day()));
    res.set("Content-Disposition", "attachment; filename=\"" + what.list + "-" + stamp + ".csv\"");
    res.streamed(200, "text/csv; charset=utf-8",
                 [&db, actor = std::move(actor), what = std::move(what), produce = std::move(produce)](const http::Response::Send& send) {
        csv::Writer out(send);
        try {
            out.header(what.header);
            produce(out);
            out.finish();
        } catch (...) {
            // The client went away or the database failed: the rows before it are what was exported.
            try {
                recordExport(db, actor, what, out.rows(), false);
            } catch (const std::exception& e) {
                Poco::Logger::get("audit").error("the audit entry of an unfinished %s export failed: %s", what.list,
                                                 std::string(e.what()));
            }
            throw;
        }
        recordExport(db, actor, what, out.rows(), true);
    });
}

std::optional<nz::Instant> instantOf(const std::optional<std::string>& stored) {
    if (!stored || stored->empty()) return std::nullopt;
    return nz::Instant{std::chrono::seconds(db::epochFromTimestamp(*stored))};
}

nlohmann::json filtersOf(std::initializer_list<std::pair<const char*, std::optional<std::string>>> given) {
    auto json = nlohmann::json::object();
    for (const auto& [name, value] : given)
        if (value) json[name] = *value;
    return json;
}

} // namespace storefront::audit
