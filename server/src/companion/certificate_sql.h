#pragma once
// The certificate SQL that the certificate repository (certificate_repository.cpp) and its search
// planner (certificate_search.cpp) share: the row's columns, its mapping and one page of it.
// Internal to companion/.
#include "companion/companion_repository.h"
#include "db/list.h"

namespace storefront::companion::certificate_sql {

#define CERTIFICATE_FIELDS                                                                                       \
    "SELECT CAST(c.id AS TEXT) AS id, CAST(c.worker_id AS TEXT) AS worker_id, c.certificate_number, "             \
    "c.site_location, c.status, CAST(c.created_at AS TEXT) AS created_at, CAST(c.updated_at AS TEXT) AS updated_at, " \
    "CAST(c.issued_at AS TEXT) AS issued_at, w.full_name AS worker_name, w.email AS worker_email"
#define CERTIFICATE_FROM " FROM certificates c JOIN worker_profiles w ON w.id = c.worker_id"
#define CERTIFICATE_COLUMNS CERTIFICATE_FIELDS CERTIFICATE_FROM

inline constexpr const char* kColumns = CERTIFICATE_COLUMNS;
inline constexpr const char* kColumnsCounted = CERTIFICATE_FIELDS ", COUNT(*) OVER () AS total_count" CERTIFICATE_FROM;
inline constexpr const char* kById = CERTIFICATE_COLUMNS " WHERE c.id = ? AND c.worker_id = ?";

// The column lists above are macros only to be joined into constants at compile time; they end
// here (the sanitizer build compiles sources in batches).
#undef CERTIFICATE_FIELDS
#undef CERTIFICATE_FROM
#undef CERTIFICATE_COLUMNS

inline constexpr const char* kCount = "SELECT COUNT(*) FROM certificates c";
inline constexpr const char* kWhereStatus = "c.status = ?";
// A deep page (OFFSET at least db::kDeferredJoinOffset) chooses its ids first, from the sort's
// index alone (every sort has an (expression, id) index), and joins the worker and reads the
// columns for the page's rows only: the skipped rows are index entries, not joined rows.
inline constexpr const char* kPageIds = "SELECT c.id FROM certificates c";

Certificate read(const db::Row& r);
// One page in the query's order (deferred when deep).
std::vector<Certificate> pageOf(Poco::Data::Session& s, const db::Where& where, const db::PageQuery& query);

} // namespace storefront::companion::certificate_sql
