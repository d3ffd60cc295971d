#include "auth/customer_export.h"

#include "audit/csv_export.h"
#include "http/paging.h"

namespace storefront::auth {

namespace {

constexpr const char* kColumns =
    "SELECT CAST(u.id AS TEXT) AS id, u.email, p.full_name, CAST(u.created_at AS TEXT) AS created_at, "
    "CAST(u.email_confirmed_at AS TEXT) AS email_confirmed_at, CAST(u.last_sign_in_at AS TEXT) AS last_sign_in_at, "
    "CAST(u.deleted_at AS TEXT) AS deleted_at, "
    "EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS is_admin, "
    "EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') AS has_factor "
    "FROM users u LEFT JOIN profiles p ON p.id = u.id";
constexpr const char* kWhereSearch = "(LOWER(u.email) LIKE ? ESCAPE '\\' OR LOWER(p.full_name) LIKE ? ESCAPE '\\')";
constexpr const char* kWhereAdmin = "EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin')";
constexpr const char* kWhereNotAdmin = "NOT EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin')";
constexpr const char* kWhereFactor = "EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified')";
constexpr const char* kWhereNoFactor =
    "NOT EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified')";
constexpr const char* kWhereUnconfirmed = "u.email_confirmed_at IS NULL AND u.deleted_at IS NULL";
constexpr const char* kWhereConfirmed = "u.email_confirmed_at IS NOT NULL";
constexpr const char* kWhereClosed = "u.deleted_at IS NOT NULL";
constexpr const char* kWhereOpen = "u.deleted_at IS NULL";

// The closed account's stand-in for its email (COMMON.md: orders and invoices show the same).
constexpr const char* kClosedAccount = "Closed account";

std::optional<bool> readFlag(const http::Request& req, const char* name) {
    auto value = http::readChoice(req, name, {"true", "false"});
    if (!value) return std::nullopt;
    return *value == "true";
}

const std::vector<std::string> kHeader = {"email", "full_name", "admin", "two_factor", "email_confirmed_at", "last_sign_in_at",
                                          "created_at", "closed_at", "user_id"};

} // namespace

const db::SortColumns CustomerExportRepository::kSorts(
    {{"created", "u.created_at"}, {"email", "u.email"}, {"last_sign_in", "u.last_sign_in_at"}}, "u.id", "created");

std::int64_t CustomerExportRepository::each(const CustomerExportFilter& filter, const db::Keyset& order,
                                            const std::function<void(const CustomerExportRow&)>& onRow) {
    auto s = db_.session();
    db::Where where(s, filter.search.has_value());
    if (filter.search) {
        auto p = db::likePattern(*filter.search);
        where.add(kWhereSearch, {p, p});
    }
    if (filter.admin) where.add(*filter.admin ? kWhereAdmin : kWhereNotAdmin, {});
    if (filter.twoFactor) where.add(*filter.twoFactor ? kWhereFactor : kWhereNoFactor, {});
    if (filter.unconfirmed) where.add(*filter.unconfirmed ? kWhereUnconfirmed : kWhereConfirmed, {});
    if (filter.closed) where.add(*filter.closed ? kWhereClosed : kWhereOpen, {});
    return db::readAll(db_, kColumns, where, order, [&onRow](const db::Row& r) {
        CustomerExportRow c;
        c.id = r.text("id");
        c.email = r.optText("email");
        c.fullName = r.optText("full_name");
        c.createdAt = r.timestamp("created_at");
        c.confirmedAt = r.optTimestamp("email_confirmed_at");
        c.lastSignInAt = r.optTimestamp("last_sign_in_at");
        c.closedAt = r.optTimestamp("deleted_at");
        c.admin = r.boolean("is_admin");
        c.twoFactor = r.boolean("has_factor");
        onRow(c);
    });
}

void registerCustomerExport(http::Router& router, CustomerExportRepository& repo) {
    router.get("/api/v1/admin/customers/export.csv", http::Access::StaffAdmin, [&repo](http::Request& req, http::Response& res) {
        CustomerExportFilter filter;
        filter.search = http::readSearch(req);
        if (auto role = http::readChoice(req, "role", {"admin"})) filter.admin = true;
        filter.twoFactor = readFlag(req, "two_factor");
        filter.unconfirmed = readFlag(req, "unconfirmed");
        filter.closed = readFlag(req, "closed");
        const auto sort = http::readSort(req, CustomerExportRepository::kSorts);
        auto filters = nlohmann::json::object();
        if (filter.search) filters["q"] = *filter.search;
        if (filter.admin) filters["role"] = "admin";
        for (const auto& [name, value] : {std::pair{"two_factor", filter.twoFactor}, std::pair{"unconfirmed", filter.unconfirmed},
                                          std::pair{"closed", filter.closed}})
            if (value) filters[name] = *value ? "true" : "false";
        filters["sort"] = sort.column;
        filters["dir"] = sort.descending ? "desc" : "asc";
        audit::CsvExport what{"customers", std::move(filters), kHeader};
        audit::streamCsv(res, repo.database(), audit::actorOf(req), std::move(what),
                         [&repo, filter, order = CustomerExportRepository::kSorts.keyset(sort)](csv::Writer& out) {
            repo.each(filter, order, [&out](const CustomerExportRow& c) {
                const bool closed = c.closedAt.has_value();
                out.text(closed ? std::optional<std::string>(kClosedAccount) : c.email);
                out.text(closed ? std::nullopt : c.fullName);
                out.boolean(c.admin).boolean(c.twoFactor);
                out.time(audit::instantOf(c.confirmedAt)).time(audit::instantOf(c.lastSignInAt));
                out.time(audit::instantOf(c.createdAt)).time(audit::instantOf(c.closedAt)).text(c.id);
                out.endRow();
            });
        });
    });
}

} // namespace storefront::auth
