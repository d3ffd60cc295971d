// Which PostgreSQL failures mean "the database is gone for now" (503, retry) rather than a bug.
#include "db/postgres_session.h"

#include <gtest/gtest.h>

using storefront::db::isConnectionFailure;

TEST(DbConnectionFailure, ConnectionClassAndShutdownStatesAreConnectionFailures) {
    EXPECT_TRUE(isConnectionFailure("08006", false)); // connection_failure
    EXPECT_TRUE(isConnectionFailure("08001", false)); // could not connect
    EXPECT_TRUE(isConnectionFailure("57P01", false)); // admin_shutdown (a restart)
    EXPECT_TRUE(isConnectionFailure("57P02", false)); // crash_shutdown
    EXPECT_TRUE(isConnectionFailure("57P03", false)); // cannot_connect_now (starting up)
    EXPECT_TRUE(isConnectionFailure(nullptr, true));  // libpq says the connection is bad
}

TEST(DbConnectionFailure, OrdinaryStatementErrorsAreNot) {
    EXPECT_FALSE(isConnectionFailure("23505", false)); // unique violation
    EXPECT_FALSE(isConnectionFailure("40001", false)); // serialization failure
    EXPECT_FALSE(isConnectionFailure("57014", false)); // query cancelled (statement timeout)
    EXPECT_FALSE(isConnectionFailure("42P01", false)); // undefined table
    EXPECT_FALSE(isConnectionFailure(nullptr, false));
}
