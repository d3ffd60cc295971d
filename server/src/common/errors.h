#pragma once
// Failures that cross the layers: raised by storage (db/), answered by transport (http/server.cpp,
// the one error-to-status map).
#include <Poco/Exception.h>

namespace storefront::common {

// A write that lost a race with another transaction: a unique key another request inserted first
// (e.g. two requests creating the same new user at once, each having checked before inserting and
// neither seeing the other), a serialization failure or a deadlock. Nothing was written, and the
// same request again gets the ordinary answer, since it now sees the other's row. Answered 409
// `conflict`. PostgreSQL only: SQLite runs one writer at a time, so a check before an insert
// cannot be raced there.
POCO_DECLARE_EXCEPTION(, ConcurrentWriteException, Poco::RuntimeException)

} // namespace storefront::common
