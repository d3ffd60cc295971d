// ctest runs the API tests as parallel shards (GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX, see
// server/CMakeLists.txt). On SQLite every test process already has a database file of its own.
// On PostgreSQL the shards would share the one database of STOREFRONT_TEST_DATABASE and see each
// other's rows, so before any test starts each shard makes a fresh database of its own in the same
// cluster (`<name>_shard<N>`) and points STOREFRONT_TEST_DATABASE at it.
#include <libpq-fe.h>

#include <cstdlib>
#include <iostream>
#include <string>

namespace {

void fail(const std::string& message) {
    std::cerr << "api_tests: " << message << std::endl;
    std::exit(1);
}

void exec(PGconn* connection, const std::string& sql) {
    PGresult* result = PQexec(connection, sql.c_str());
    const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
    const std::string error = ok ? "" : PQresultErrorMessage(result);
    PQclear(result);
    if (!ok) fail(sql + ": " + error);
}

struct ShardDatabase {
    ShardDatabase() {
        const char* url = std::getenv("STOREFRONT_TEST_DATABASE");
        const char* index = std::getenv("GTEST_SHARD_INDEX");
        const char* total = std::getenv("GTEST_TOTAL_SHARDS");
        if (!url || !*url || !index || !*index || !total || std::atoi(total) <= 1) return;
        const std::string base(url);
        const auto end = base.find('?');
        const auto slash = base.rfind('/', end);
        if (slash == std::string::npos) fail("STOREFRONT_TEST_DATABASE has no database name: " + base);
        const std::string name = base.substr(slash + 1, end == std::string::npos ? std::string::npos : end - slash - 1) +
                                 "_shard" + std::to_string(std::atoi(index));
        PGconn* connection = PQconnectdb(base.c_str());
        if (PQstatus(connection) != CONNECTION_OK) {
            const std::string error = PQerrorMessage(connection);
            PQfinish(connection);
            fail("cannot connect to " + base + ": " + error);
        }
        exec(connection, "DROP DATABASE IF EXISTS \"" + name + "\"");
        exec(connection, "CREATE DATABASE \"" + name + "\"");
        PQfinish(connection);
        const std::string shardUrl =
            base.substr(0, slash + 1) + name + (end == std::string::npos ? "" : base.substr(end));
        setenv("STOREFRONT_TEST_DATABASE", shardUrl.c_str(), 1);
    }
};

const ShardDatabase shardDatabase;

} // namespace
