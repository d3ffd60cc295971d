#pragma once
// SQL for "Close my account" (DELETE /api/v1/account): what refuses it, what must be cancelled at
// the payment provider first, and the one transaction that turns the user into a tombstone
// (docs/privacy.md): the users row stays with its id (orders, invoices and the audit log point at
// it) and nothing that identifies the person.
#include "auth/user_repository.h"
#include "db/database.h"

#include <optional>
#include <string>
#include <vector>

namespace storefront::privacy {

struct LiveSubscription {
    std::string id, provider;
    std::optional<std::string> providerSubscriptionId;
};

class ClosingRepository {
public:
    // Subscriptions that could still charge: active, trialing or pending.
    std::vector<LiveSubscription> liveSubscriptions(Poco::Data::Session& s, const std::string& userId);
    // Checkouts still open at the provider (creating or open).
    std::vector<std::string> openCheckouts(Poco::Data::Session& s, const std::string& userId);
    // Whether the user is the admin of an enterprise account (any, active or not).
    bool administersEnterprise(Poco::Data::Session& s, const std::string& userId);
    // Whether the user holds the staff admin role (the last one is counted by
    // auth::UserRepository::countAdmins, the one check the customers screen uses too).
    bool isStaffAdmin(Poco::Data::Session& s, const std::string& userId);

    // Marks the live subscriptions cancelled (the provider has been told).
    void cancelSubscriptions(db::Tx& tx, const std::string& userId);
    // Replaces the name, email and phone on the user's orders and invoices with "Closed account".
    void anonymiseOrders(db::Tx& tx, const std::string& userId);
    // Deletes the profile, roles, factors, sessions, links, portal links and WireWrite data, and
    // scrubs the users row (email, phone, password, metadata) with deleted_at set. False when the
    // user was already closed (a concurrent request).
    bool tombstone(db::Tx& tx, const std::string& userId);
    // The user's address (nullopt when none or already closed).
    std::optional<std::string> emailOf(db::Tx& tx, const std::string& userId);
    // Drops the email copied into older audit entries the user made (the ids stay), and replaces
    // the address wherever an entry's states or detail quote it (a staff change that named them).
    void scrubAuditEmail(db::Tx& tx, const std::string& userId, const std::optional<std::string>& email);
};

} // namespace storefront::privacy
