#pragma once
// Whether a session talks to SQLite, for the few statements that differ per engine (the trigram
// search of migration 0011, docs/database.md "Substring search"). Everything else is portable SQL.
#include <Poco/Data/Session.h>

namespace storefront::db {

inline bool isSqlite(Poco::Data::Session& session) { return session.connector() == "sqlite"; }

} // namespace storefront::db
