#include "db/postgres_session.h"

#include "common/errors.h"
#include "db/dialect.h"

#include <Poco/Data/AbstractExtractor.h>
#include <Poco/Data/LOB.h>
#include <Poco/Data/MetaColumn.h>
#include <Poco/Data/PostgreSQL/Binder.h>
#include <Poco/Data/PostgreSQL/PostgreSQLException.h>
#include <Poco/Data/PostgreSQL/SessionImpl.h>
#include <Poco/Data/SessionFactory.h>
#include <Poco/Data/StatementImpl.h>
#include <Poco/DateTimeParser.h>
#include <Poco/Dynamic/Var.h>
#include <Poco/NumberParser.h>
#include <Poco/String.h>
#include <Poco/UUID.h>

#include <Poco/Data/DataException.h>

#include <libpq-fe.h>
#include <poll.h>

#include <cctype>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace storefront::db {

const std::string PostgresConnector::KEY = "postgresql";

namespace {

using Poco::Data::MetaColumn;
using Poco::Data::PostgreSQL::StatementException;

std::string firstKeyword(const std::string& sql) {
    std::size_t i = 0;
    while (i < sql.size()) {
        if (std::isspace(static_cast<unsigned char>(sql[i]))) {
            ++i;
        } else if (sql.compare(i, 2, "--") == 0) {
            i = sql.find('\n', i);
            if (i == std::string::npos) return {};
        } else if (sql[i] == '(') {
            ++i; // "(SELECT ...) UNION ..." starts with its first keyword too
        } else {
            break;
        }
    }
    std::size_t end = i;
    while (end < sql.size() && std::isalpha(static_cast<unsigned char>(sql[end])))
        ++end;
    return Poco::toUpper(sql.substr(i, end - i));
}

// A PGresult freed when it goes out of scope.
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

Result wrap(PGresult* r) {
    return Result(r, &PQclear);
}

[[noreturn]] void fail(PGconn* conn, const PGresult* r, const char* what, const std::string& sql) {
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    std::string message = r ? PQresultErrorMessage(r) : PQerrorMessage(conn);
    if (message.empty()) message = PQerrorMessage(conn);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
        message.pop_back();
    if (isConnectionFailure(state, PQstatus(conn) != CONNECTION_OK))
        throw Poco::Data::ConnectionFailedException(std::string(what) + ": the database connection failed: " + message);
    // lock_not_available: the lock_timeout passed waiting for a lock another transaction holds.
    // As a busy pool: the client gets 503 server_busy and may retry.
    if (state && std::string_view(state) == "55P03")
        throw Poco::Data::SessionPoolExhaustedException(std::string(what) + ": a lock stayed held past lock_timeout: " + message);
    if (isConcurrentWrite(state))
        throw common::ConcurrentWriteException(std::string(what) + " failed (SQLSTATE " + state + "): " + message + " [" + sql + "]");
    throw StatementException(std::string(what) + " failed (SQLSTATE " + (state ? state : "none") + "): " + message +
                             " [" + sql + "]");
}

bool ok(const PGresult* r) {
    auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

struct Prepared {
    std::string name;
    std::vector<MetaColumn> columns;
};

class Statement;

// POCO's session (connecting, BEGIN/COMMIT/ROLLBACK as single simple queries, features) plus this
// connection's kept statements.
class Session : public Poco::Data::PostgreSQL::SessionImpl {
  public:
    using SessionImpl::SessionImpl;

    Poco::Data::StatementImpl::Ptr createStatementImpl() override;

    PGconn* conn() { return handle(); }

    Poco::Any getProperty(const std::string& name) override {
        if (name == kConnectionAliveProperty) return Poco::Any(alive());
        return SessionImpl::getProperty(name);
    }

    // See kConnectionAliveProperty. Reading the server's goodbye (an error message, then end of
    // file) makes libpq mark the connection bad; anything else readable (a notice) is consumed.
    bool alive() {
        PGconn* c = conn();
        if (!c || PQstatus(c) != CONNECTION_OK) return false;
        for (int i = 0; i < 8; ++i) {
            pollfd p{PQsocket(c), POLLIN, 0};
            if (p.fd < 0) return false;
            if (::poll(&p, 1, 0) <= 0) break;
            if (!PQconsumeInput(c)) break;
            while (PGnotify* n = PQnotifies(c)) PQfreemem(n);
        }
        return PQstatus(c) == CONNECTION_OK;
    }
    Poco::FastMutex& mutex() { return handle().mutex(); }

    // The kept statement for `sql`, preparing and describing it on first use.
    const Prepared& prepared(const std::string& sql) {
        if (auto it = kept_.find(sql); it != kept_.end()) return it->second;
        if (kept_.size() >= kPreparedStatementsPerConnection) forgetAll();
        Prepared p;
        p.name = "sf" + std::to_string(++counter_);
        Poco::FastMutex::ScopedLock lock(mutex());
        auto prep = wrap(PQprepare(conn(), p.name.c_str(), sql.c_str(), 0, nullptr));
        if (!ok(prep.get())) fail(conn(), prep.get(), "prepare", sql);
        auto desc = wrap(PQdescribePrepared(conn(), p.name.c_str()));
        if (!ok(desc.get())) {
            deallocate(p.name);
            fail(conn(), desc.get(), "describe", sql);
        }
        for (int i = 0; i < PQnfields(desc.get()); ++i)
            p.columns.emplace_back(static_cast<std::size_t>(i), PQfname(desc.get(), i), MetaColumn::FDT_STRING, 0, 0,
                                   true);
        return kept_.emplace(sql, std::move(p)).first->second;
    }

    // Drops one kept statement (its plan no longer fits: e.g. the table changed under it).
    void forget(const std::string& sql) {
        auto it = kept_.find(sql);
        if (it == kept_.end()) return;
        deallocate(it->second.name);
        kept_.erase(it);
    }

    void forgetAll() {
        if (kept_.empty()) return;
        kept_.clear();
        auto r = wrap(PQexec(conn(), "DEALLOCATE ALL"));
        (void)r; // in an aborted transaction this fails; the names are unique, so nothing clashes later
    }

  private:
    void deallocate(const std::string& name) {
        auto r = wrap(PQexec(conn(), ("DEALLOCATE " + name).c_str()));
        (void)r;
    }

    std::unordered_map<std::string, Prepared> kept_;
    std::uint64_t counter_ = 0;
};

// Reads the current row of a PGresult as text, converting like POCO's PostgreSQL extractor.
class Extractor : public Poco::Data::AbstractExtractor {
  public:
    void setRow(const PGresult* result, int row) {
        result_ = result;
        row_ = row;
    }

    bool extract(std::size_t pos, Poco::Int8& val) override { return number<int>(pos, val); }
    bool extract(std::size_t pos, Poco::UInt8& val) override { return number<unsigned>(pos, val); }
    bool extract(std::size_t pos, Poco::Int16& val) override { return number<int>(pos, val); }
    bool extract(std::size_t pos, Poco::UInt16& val) override { return number<unsigned>(pos, val); }
    bool extract(std::size_t pos, Poco::Int32& val) override { return number<int>(pos, val); }
    bool extract(std::size_t pos, Poco::UInt32& val) override { return number<unsigned>(pos, val); }
    bool extract(std::size_t pos, Poco::Int64& val) override { return number<Poco::Int64>(pos, val); }
    bool extract(std::size_t pos, Poco::UInt64& val) override { return number<Poco::UInt64>(pos, val); }
#ifndef POCO_INT64_IS_LONG
    bool extract(std::size_t pos, long& val) override {
        return number<Poco::Int64>(pos, val);
    }
    bool extract(std::size_t pos, unsigned long& val) override {
        return number<Poco::UInt64>(pos, val);
    }
#endif
    bool extract(std::size_t pos, bool& val) override {
        const char* v = value(pos);
        if (!v) return false;
        val = *v == 't' || *v == 'T' || *v == '1';
        return true;
    }
    bool extract(std::size_t pos, float& val) override {
        return number<double>(pos, val);
    }
    bool extract(std::size_t pos, double& val) override {
        return number<double>(pos, val);
    }
    bool extract(std::size_t pos, char& val) override {
        const char* v = value(pos);
        if (!v) return false;
        val = *v;
        return true;
    }
    bool extract(std::size_t pos, std::string& val) override {
        const char* v = value(pos);
        if (!v) return false;
        val.assign(v, static_cast<std::size_t>(PQgetlength(result_, row_, static_cast<int>(pos))));
        return true;
    }
    bool extract(std::size_t pos, Poco::Data::BLOB& val) override {
        const char* v = value(pos);
        if (!v) return false;
        // bytea in text form: \x followed by two hex digits a byte.
        std::string hex(v);
        val.clear();
        if (hex.rfind("\\x", 0) == 0) {
            for (std::size_t i = 2; i + 1 < hex.size(); i += 2) {
                unsigned byte = 0;
                if (!Poco::NumberParser::tryParseHex(hex.substr(i, 2), byte)) return false;
                unsigned char c = static_cast<unsigned char>(byte);
                val.appendRaw(&c, 1);
            }
        }
        return true;
    }
    bool extract(std::size_t pos, Poco::Data::CLOB& val) override {
        std::string s;
        if (!extract(pos, s)) return false;
        val.assignRaw(s.data(), s.size());
        return true;
    }
    bool extract(std::size_t pos, Poco::DateTime& val) override {
        const char* v = value(pos);
        int tzd = 0;
        Poco::DateTime parsed;
        if (!v || !Poco::DateTimeParser::tryParse(v, parsed, tzd)) return false;
        parsed.makeUTC(tzd);
        val = parsed;
        return true;
    }
    bool extract(std::size_t pos, Poco::Data::Date& val) override {
        Poco::DateTime dt;
        if (!extract(pos, dt)) return false;
        val.assign(dt.year(), dt.month(), dt.day());
        return true;
    }
    bool extract(std::size_t pos, Poco::Data::Time& val) override {
        const char* v = value(pos);
        int tzd = 0;
        Poco::DateTime parsed;
        if (!v || !Poco::DateTimeParser::tryParse("%H:%M:%s%z", v, parsed, tzd)) return false;
        val.assign(parsed.hour(), parsed.minute(), parsed.second());
        return true;
    }
    bool extract(std::size_t pos, Poco::UUID& val) override {
        const char* v = value(pos);
        return v && val.tryParse(v);
    }
    bool extract(std::size_t pos, Poco::Any& val) override {
        std::string s;
        if (!extract(pos, s)) return false;
        val = s;
        return true;
    }
    bool extract(std::size_t pos, Poco::Dynamic::Var& val) override {
        std::string s;
        if (!extract(pos, s)) return false;
        val = s;
        return true;
    }
    bool isNull(std::size_t col, std::size_t = Poco::Data::POCO_DATA_INVALID_ROW) override {
        return value(col) == nullptr;
    }

  private:
    // The text of a column in the current row, or nullptr for NULL.
    const char* value(std::size_t pos) const {
        if (!result_ || pos >= static_cast<std::size_t>(PQnfields(result_)))
            throw StatementException("extracting column " + std::to_string(pos) + " that the result does not have");
        int col = static_cast<int>(pos);
        return PQgetisnull(result_, row_, col) ? nullptr : PQgetvalue(result_, row_, col);
    }

    template <class Parsed, class T> bool number(std::size_t pos, T& val) {
        const char* v = value(pos);
        if (!v) return false;
        Parsed parsed{};
        bool good;
        if constexpr (std::is_same_v<Parsed, double>)
            good = Poco::NumberParser::tryParseFloat(v, parsed);
        else if constexpr (std::is_same_v<Parsed, Poco::Int64>)
            good = Poco::NumberParser::tryParse64(v, parsed);
        else if constexpr (std::is_same_v<Parsed, Poco::UInt64>)
            good = Poco::NumberParser::tryParseUnsigned64(v, parsed);
        else if constexpr (std::is_same_v<Parsed, unsigned>)
            good = Poco::NumberParser::tryParseUnsigned(v, parsed);
        else
            good = Poco::NumberParser::tryParse(v, parsed);
        if (!good) return false;
        val = static_cast<T>(parsed);
        return true;
    }

    const PGresult* result_ = nullptr;
    int row_ = 0;
};

class Statement : public Poco::Data::StatementImpl {
  public:
    explicit Statement(Session& session)
        : StatementImpl(session), session_(session), binder_(new Poco::Data::PostgreSQL::Binder),
          extractor_(new Extractor), result_(nullptr, &PQclear) {}

  protected:
    std::size_t columnsReturned() const override { return columns_ ? columns_->size() : 0; }

    int affectedRowCount() const override { return affected_; }

    const MetaColumn& metaColumn(std::size_t pos) const override {
        if (!columns_ || pos >= columns_->size()) throw StatementException("no result column " + std::to_string(pos));
        return (*columns_)[pos];
    }

    bool hasNext() override { return result_ && columnsReturned() > 0 && row_ < PQntuples(result_.get()); }

    std::size_t next() override {
        if (!hasNext()) throw StatementException("no more rows");
        extractor_->setRow(result_.get(), row_);
        std::size_t position = 0;
        for (auto& extraction : extractions()) {
            extraction->extract(position);
            position += extraction->numOfColumnsHandled();
        }
        ++row_;
        return 1;
    }

    bool canBind() const override {
        const auto& binds = bindings();
        return compiled_ && !binds.empty() && (*binds.begin())->canBind();
    }

    bool canCompile() const override { return !compiled_; }

    void compileImpl() override {
        sql_ = toString();
        kept_ = isKeptStatement(sql_);
        planPerCall_ = sql_.starts_with(kPlanPerCall);
        if (kept_) {
            const Prepared& p = session_.prepared(sql_);
            name_ = p.name;
            columns_ = &p.columns;
        }
        compiled_ = true;
    }

    void bindImpl() override {
        std::size_t position = 0;
        for (auto& binding : bindings()) {
            if (!binding->canBind()) break;
            binding->bind(position);
            position += binding->numOfColumnsHandled();
        }
        binder_->updateBindVectorToCurrentValues();
        const auto params = binder_->bindVector();
        std::vector<const char*> values;
        std::vector<int> lengths, formats;
        for (const auto& p : params) {
            values.push_back(static_cast<const char*>(p.pInternalRepresentation()));
            lengths.push_back(static_cast<int>(p.size()));
            formats.push_back(p.isBinary() ? 1 : 0);
        }
        const int n = static_cast<int>(params.size());
        row_ = 0;
        affected_ = 0;
        {
            Poco::FastMutex::ScopedLock lock(session_.mutex());
            PGresult* r;
            if (kept_ && !planPerCall_)
                r = PQexecPrepared(session_.conn(), name_.c_str(), n, n ? values.data() : nullptr,
                                   n ? lengths.data() : nullptr, n ? formats.data() : nullptr, 0);
            else if (n)
                r = PQexecParams(session_.conn(), sql_.c_str(), n, nullptr, values.data(), lengths.data(),
                                 formats.data(), 0);
            else
                r = PQexec(session_.conn(), sql_.c_str());
            result_.reset(r);
        }
        if (!ok(result_.get())) {
            const char* state = result_ ? PQresultErrorField(result_.get(), PG_DIAG_SQLSTATE) : nullptr;
            // "cached plan must not change result type": another connection changed the table.
            if (kept_ && state && std::string(state) == "0A000") session_.forget(sql_);
            fail(session_.conn(), result_.get(), "execute", sql_);
        }
        if (PQresultStatus(result_.get()) == PGRES_TUPLES_OK) {
            affected_ = PQntuples(result_.get());
        } else {
            Poco::NumberParser::tryParse(PQcmdTuples(result_.get()), affected_);
            if (!kept_ && isSchemaChange(sql_)) session_.forgetAll();
        }
    }

    Poco::Data::AbstractExtractor::Ptr extractor() override { return extractor_; }
    Poco::Data::AbstractBinder::Ptr binder() override { return binder_; }

  private:
    Session& session_;
    Poco::SharedPtr<Poco::Data::PostgreSQL::Binder> binder_;
    Poco::SharedPtr<Extractor> extractor_;
    Result result_;
    std::string sql_, name_;
    const std::vector<MetaColumn>* columns_ = nullptr;
    // Kept for its columns' description, but sent with its text each time (db::kPlanPerCall).
    bool planPerCall_ = false;
    bool kept_ = false, compiled_ = false;
    int row_ = 0, affected_ = 0;
};

Poco::Data::StatementImpl::Ptr Session::createStatementImpl() {
    return new Statement(*this);
}

} // namespace

bool isConcurrentWrite(const char* sqlState) {
    if (!sqlState) return false;
    const std::string_view state(sqlState);
    return state == "23505" || state == "40001" || state == "40P01";
}

bool isConnectionFailure(const char* sqlState, bool connectionBad) {
    if (connectionBad) return true;
    if (!sqlState) return false;
    const std::string state(sqlState);
    return state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03";
}

bool isKeptStatement(const std::string& sql) {
    static const char* const kinds[] = {"SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "VALUES"};
    const std::string first = firstKeyword(sql);
    for (const char* kind : kinds)
        if (first == kind) return true;
    return false;
}

bool isSchemaChange(const std::string& sql) {
    static const char* const kinds[] = {"CREATE", "ALTER", "DROP", "COMMENT"};
    const std::string first = firstKeyword(sql);
    for (const char* kind : kinds)
        if (first == kind) return true;
    return false;
}

Poco::AutoPtr<Poco::Data::SessionImpl> PostgresConnector::createSession(const std::string& connectionString,
                                                                        std::size_t timeout) {
    return Poco::AutoPtr<Poco::Data::SessionImpl>(new Session(connectionString, timeout));
}

void registerPostgresConnector() {
    static std::once_flag once;
    std::call_once(once, [] { Poco::Data::SessionFactory::instance().add(new PostgresConnector); });
}

} // namespace storefront::db
