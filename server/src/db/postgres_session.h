#pragma once
// The PostgreSQL connector the pool uses: POCO's own session (connection, transactions) with a
// statement layer that keeps each connection's prepared statements.
//
// Why: POCO 1.11's PostgreSQL statements make four round trips each (prepare, describe, execute,
// DEALLOCATE) and re-plan every time. Here a statement is prepared and described once per
// connection and text; after that it is one round trip (PQexecPrepared), like pgbench -M prepared.
// Statements other than SELECT/INSERT/UPDATE/DELETE/WITH/VALUES (BEGIN, SET, DDL, LOCK...) run as
// one simple query and are not kept; DDL empties the connection's cache, since a changed table may
// change what a kept statement returns.
//
// Values go in through POCO's PostgreSQL Binder (text format, unchanged) and come out as text:
// every column is reported as a string column, as POCO's connector does, so RecordSet, db::Row
// and into() see exactly what they saw before.
#include <Poco/Data/Connector.h>

#include <string>

namespace storefront::db {

class PostgresConnector : public Poco::Data::Connector {
  public:
    static const std::string KEY; // "postgresql"
    const std::string& name() const override { return KEY; }
    Poco::AutoPtr<Poco::Data::SessionImpl>
    createSession(const std::string& connectionString,
                  std::size_t timeout = Poco::Data::SessionImpl::LOGIN_TIMEOUT_DEFAULT) override;
};

// Registers PostgresConnector with Poco::Data::SessionFactory under "postgresql" (once).
void registerPostgresConnector();

// Session::getProperty(kConnectionAliveProperty) on a PostgreSQL session: a bool, false when the
// connection is gone (the server closed it: a restart, an administrator, a network failure). It
// costs one non-blocking poll of the socket: an idle connection has nothing to read unless the
// server is telling it goodbye. A dead connection is marked bad, so the pool drops it.
inline constexpr const char* kConnectionAliveProperty = "storefront.connectionAlive";

// True for a failure that means the connection to the server is lost or the server is not
// accepting work (SQLSTATE class 08, 57P01-57P03): the request may be retried later.
bool isConnectionFailure(const char* sqlState, bool connectionBad);

// True for the SQLSTATEs of a write that lost a race with another transaction (unique key 23505,
// serialization failure 40001, deadlock 40P01): thrown as common::ConcurrentWriteException.
bool isConcurrentWrite(const char* sqlState);

// How many statements a connection keeps prepared before it starts over (DEALLOCATE ALL).
inline constexpr std::size_t kPreparedStatementsPerConnection = 512;

// True for statements worth keeping prepared (their first keyword is SELECT, INSERT, UPDATE,
// DELETE, WITH or VALUES); exposed for unit tests. One that starts with db::kPlanPerCall is kept
// for its columns' description but run with PQexecParams, planned for its values each time.
bool isKeptStatement(const std::string& sql);

// True for statements that may change a table's shape (CREATE, ALTER, DROP, COMMENT).
bool isSchemaChange(const std::string& sql);

} // namespace storefront::db
