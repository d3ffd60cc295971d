#pragma once
// The staff customers screen's reads (/api/v1/admin/customers): the list (search by email or name,
// filters, sort, paging) and one customer with everything staff look at: orders, subscriptions,
// tax invoices, enterprise accounts, the WireWrite profile, two-factor factors (names and dates
// only, never a secret) and recent sign-in events. Like the dashboard's figures, it reads across
// areas with SQL of its own; the actions are auth::CustomerAdmin's.
#include "db/database.h"
#include "db/list.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace storefront::backoffice {

struct CustomerFilter {
    std::optional<std::string> q;   // part of the email address or the name
    bool admins = false;            // ?role=admin
    std::optional<bool> twoFactor;  // ?two_factor=true|false: a verified factor or none
    bool unconfirmed = false;       // ?unconfirmed=true: email not confirmed (open accounts)
    bool closed = false;            // ?closed=true: closed accounts only (else open ones only)
};

struct CustomerRow {
    std::string id, createdAt;
    std::optional<std::string> email, fullName, lastSignInAt, emailConfirmedAt, closedAt;
    bool admin = false, twoFactor = false;
};

struct CustomerOrder {
    std::string id, orderNumber, status, currency, createdAt;
    std::int64_t totalAmount = 0;
};

struct CustomerSubscription {
    std::string id, productName, status, createdAt;
    std::optional<std::string> planName, currentPeriodEnd;
    bool cancelAtPeriodEnd = false;
};

struct CustomerInvoice {
    std::string id, number, kind, currency, issuedAt;
    std::optional<std::string> orderId;
    std::int64_t totalAmount = 0;
};

struct CustomerEnterprise {
    std::string accountId, companyName, role; // role: owner (the account's admin) | admin | member
    bool active = true;
};

struct CustomerWorker {
    std::string id, entitlement, createdAt;
    std::optional<std::string> fullName, email, licenceNumber, proExpiresAt, lastActiveAt;
};

struct CustomerFactor {
    std::string id, factorType, status, createdAt, updatedAt;
    std::optional<std::string> friendlyName;
};

struct SignInEvent {
    std::string id, action, createdAt;
    std::optional<std::string> clientAddress;
};

struct CustomerDetail {
    CustomerRow customer;
    std::optional<std::string> phone, confirmationSentAt, recoverySentAt, invitedAt, bannedUntil, adminSince;
    std::vector<CustomerOrder> orders;
    std::vector<CustomerSubscription> subscriptions;
    std::vector<CustomerInvoice> invoices;
    std::vector<CustomerEnterprise> enterprise;
    std::optional<CustomerWorker> wirewrite;
    std::vector<CustomerFactor> factors;
    std::vector<SignInEvent> signIns;
};

class CustomerRepository {
public:
    // Sort words: created (default, newest first), email, last_sign_in (never signed in: last).
    static const db::SortColumns kSorts;
    static const db::SortColumns kExportSorts;
    // How many rows of each related list the detail carries (newest first).
    static constexpr std::int64_t kRelatedLimit = 50;
    static constexpr std::int64_t kSignInEvents = 20;

    explicit CustomerRepository(db::Database& db) : db_(db) {}

    db::Page<CustomerRow> list(const CustomerFilter& filter, db::PageQuery page);
    // Every row the list's filter matches, in the sort's order, read in keyset pages (the export):
    // memory stays one batch however many match. Returns the rows read.
    std::int64_t each(const CustomerFilter& filter, const db::SortChoice& sort, const std::function<void(const CustomerRow&)>& onRow);
    db::Database& database() { return db_; }
    // Any users row, closed accounts included; nullopt when there is none.
    std::optional<CustomerDetail> find(const std::string& id);

private:
    db::Database& db_;
};

} // namespace storefront::backoffice
