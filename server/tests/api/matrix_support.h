#pragma once
// Shared by the access-matrix and hostile-input tests (issue 14): the router's route table, one
// signed-in principal of each kind, fixture rows for every path parameter, and a snapshot of every
// table for "nothing changed" checks.
#include "api/auth_support.h"

#include "http/router.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace testing_support {

// The running server's routes (read from its router, never a hand-written list).
std::vector<storefront::http::RouteInfo> serverRoutes();
std::string accessName(storefront::http::Access access);

// A principal: a name (a column of the access matrix) and the bearer token it sends (empty: none).
struct Principal {
    std::string name;
    std::string token;
};

// Everyone the matrix calls as, in column order, plus the ids of what they own.
struct Cast {
    std::vector<Principal> principals;
    // Rows the fixtures are owned by.
    Account customer;       // customer_aal1: owns the checkout, the subscription, the certificates
    std::string customerWorkerId;
    std::string customerSubscription; // provider id of the subscription they paid for
    Session customerSession;
    Account mfaCustomer;    // customer_mfa_aal1 / _aal2: owns the verified factor
    Session mfaCustomerAal2;
    Factor mfaFactor;
    Session teamAdminSession; // enterprise_admin: admin of the account
    std::string accountId;
    const Principal& get(const std::string& name) const;
};
// A new set (two TOTP step-ups of new factors and a dozen sign-ins, about a second).
std::unique_ptr<Cast> newCast();

// Path-parameter values: `key` is the pattern up to and including the parameter
// ("/api/v1/admin/orders/{id}"); a maker creates a fresh row when the previous one was consumed.
class Fixtures {
public:
    explicit Fixtures(Cast& cast);
    // The concrete path for `pattern`; empty (and `missing` set) when a parameter has no fixture.
    std::string fill(const std::string& pattern, std::string* missing = nullptr);
    // The same, with the parameter `key` set to `raw` (already URL-encoded) instead of its fixture.
    std::string fillWith(const std::string& pattern, const std::string& key, const std::string& raw,
                         std::string* missing = nullptr);
    // Replaces the rows of every parameter of `pattern` (after a call that used them up).
    void refresh(const std::string& pattern);
    bool has(const std::string& key) const { return makers_.contains(key); }

private:
    std::string value(const std::string& key);
    Cast& cast_;
    std::map<std::string, std::function<std::string()>> makers_;
    std::map<std::string, std::string> values_;
    std::map<std::string, Account> targets_; // users made for the admin-users routes, by id
};

// The parameter keys of a pattern, in order ("/a/{id}/b/{x}" -> "/a/{id}", "/a/{id}/b/{x}").
std::vector<std::string> parameterKeys(const std::string& pattern);

// Every row of every table (sorted), table by table, except the tables in `except`.
using Snapshot = std::map<std::string, std::vector<std::string>>;
Snapshot snapshotDatabase(const std::vector<std::string>& except);
// A description of the first differences (empty when equal).
std::string snapshotDiff(const Snapshot& before, const Snapshot& after, std::size_t maxLines = 20);

} // namespace testing_support
