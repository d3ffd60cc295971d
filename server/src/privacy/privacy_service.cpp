#include "privacy/privacy_service.h"

#include "auth/user_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::privacy {

using http::ApiError;
using http::ErrorKind;

namespace {

ApiError userGone() { return ApiError::notFound("user_not_found", "User not found"); }

ApiError providerFailed(const std::string& detail) {
    Poco::Logger::get("privacy").error("closing an account: the payment provider failed: %s", detail);
    return ApiError(ErrorKind::BadGateway, "payment_provider_error",
                    "The payment provider could not cancel your subscription, so your account was not closed. "
                    "Please try again in a few minutes.");
}

} // namespace

nlohmann::json PrivacyService::exportData(const audit::Actor& actor, const std::string& userId) {
    nlohmann::json document;
    {
        auto s = db_.session();
        auto data = exports_.read(s, userId);
        if (!data) throw userGone();
        document = std::move(*data);
    }
    const auto at = db_.clock().nowTimestamp();
    nlohmann::json file = {{"format", "storefront-data/1"}, {"exported_at", at}};
    file.update(document);
    document = std::move(file);
    db_.write([&](db::Tx& tx) {
        audit::record(tx, actor, {"account.exported", "user", userId, nullptr, nullptr, nlohmann::json::object()});
    });
    return document;
}

void PrivacyService::refuseIfBlocked(db::Tx& tx, const std::string& userId) {
    if (closing_.administersEnterprise(tx.session(), userId))
        throw ApiError(ErrorKind::Conflict, "enterprise_admin",
                       "You are the admin of an enterprise account. Hand it over to another person first "
                       "(contact us to change the account's admin), then close your account.");
    // The staff admins' rows are locked on PostgreSQL: two admins closing at once cannot both pass.
    if (closing_.isStaffAdmin(tx.session(), userId) && auth::UserRepository().countAdmins(tx) <= 1)
        throw ApiError(ErrorKind::Conflict, "last_admin",
                       "You are the last staff admin. Make someone else an admin first, then close your account.");
}

void PrivacyService::close(const audit::Actor& actor, const std::string& userId, const CloseInput& input,
                           const auth::ClientInfo& client) {
    // What refuses the closing comes first: it is no secret, and a code is not spent for nothing.
    db_.write([&](db::Tx& tx) { refuseIfBlocked(tx, userId); });
    reauth_.confirm(userId, input.password, input.code, client);

    std::vector<LiveSubscription> live;
    std::vector<std::string> checkouts;
    {
        auto s = db_.session();
        live = closing_.liveSubscriptions(s, userId);
        checkouts = closing_.openCheckouts(s, userId);
    }

    // The provider first: if it fails, nothing of ours has changed and the customer can try again.
    // An open checkout is abandoned (its reserved stock comes back) so it cannot be paid later.
    for (const auto& id : checkouts) {
        try {
            checkout_.cancel(userId, id);
        } catch (const ApiError& e) {
            if (e.kind() != ErrorKind::Conflict && e.kind() != ErrorKind::NotFound) throw; // paid or gone meanwhile
        }
    }
    int cancelled = 0;
    for (const auto& sub : live) {
        if (!sub.providerSubscriptionId || sub.provider != provider_.name()) continue; // nothing to stop there
        try {
            provider_.cancelSubscriptionNow(*sub.providerSubscriptionId);
        } catch (const billing::ProviderError& e) {
            throw providerFailed(e.what());
        }
        ++cancelled;
    }

    // The audit entry keeps who and when by id, never the address.
    audit::Actor who = actor;
    who.email.reset();
    std::vector<std::string> straggling; // checkouts started while the provider was being told
    db_.write([&](db::Tx& tx) {
        // The users row is held until this commits: a checkout being started waits, then finds
        // the account closed; one that got in first is ended here, inside the same transaction.
        if (auth::UserRepository().lockPresence(tx, userId, auth::UserRepository::RowLock::Exclusive) !=
            auth::UserRepository::Presence::Open)
            throw userGone();
        refuseIfBlocked(tx, userId); // a role or an account granted meanwhile
        straggling = checkout_.abandonAllOpen(tx, userId);
        closing_.cancelSubscriptions(tx, userId);
        teams_.removeFromEveryTeam(tx, who, userId);
        closing_.anonymiseOrders(tx, userId);
        const auto email = closing_.emailOf(tx, userId);
        if (!closing_.tombstone(tx, userId)) throw userGone();
        closing_.scrubAuditEmail(tx, userId, email);
        audit::record(tx, who, {"account.closed", "user", userId, nullptr, nullptr,
                                {{"subscriptions_cancelled", static_cast<std::int64_t>(live.size())},
                                 {"cancelled_at_provider", cancelled},
                                 {"checkouts_abandoned", static_cast<std::int64_t>(checkouts.size())},
                                 {"sessions_expired_in_closing", static_cast<std::int64_t>(straggling.size())}}});
    });
    checkout_.expireAtProvider(straggling);
}

} // namespace storefront::privacy
