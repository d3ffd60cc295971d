#include "privacy/closing_repository.h"

#include <nlohmann/json.hpp>

namespace storefront::privacy {

using auth::kClosedAccount;

namespace {

constexpr const char* kLiveSubscriptions =
    "SELECT CAST(id AS TEXT) AS id, payment_provider, provider_subscription_id FROM subscriptions "
    "WHERE user_id = ? AND status IN ('active', 'trialing', 'pending') ORDER BY created_at, id";
constexpr const char* kOpenCheckouts =
    "SELECT CAST(id AS TEXT) AS id FROM checkout_sessions WHERE user_id = ? AND status IN ('creating', 'open') "
    "ORDER BY created_at, id";
constexpr const char* kAdministers = "SELECT 1 FROM enterprise_accounts WHERE admin_user_id = ?";
constexpr const char* kIsStaffAdmin = "SELECT 1 FROM user_roles WHERE user_id = ? AND role = 'admin'";
constexpr const char* kCancelSubscriptions =
    "UPDATE subscriptions SET status = 'cancelled', cancel_at_period_end = FALSE, updated_at = ? "
    "WHERE user_id = ? AND status IN ('active', 'trialing', 'pending')";
constexpr const char* kAnonymiseOrders =
    "UPDATE orders SET customer_email = ?, shipping_name = CASE WHEN shipping_name IS NULL THEN NULL ELSE ? END, "
    "shipping_phone = NULL WHERE user_id = ?";
constexpr const char* kInvoiceDocuments = "SELECT CAST(id AS TEXT) AS id, document FROM tax_invoices WHERE user_id = ?";
constexpr const char* kSetInvoiceDocument = "UPDATE tax_invoices SET document = ? WHERE id = ?";
// Beyond the soft delete (auth::UserRepository::softDelete: the users row, roles, factors, links),
// each removes what belongs to the person; what hangs off these rows (refresh tokens, challenges,
// certificates, redemptions) goes with them through ON DELETE CASCADE.
constexpr const char* kDeletes[] = {
    "DELETE FROM profiles WHERE id = ?",
    "DELETE FROM auth_sessions WHERE user_id = ?",
    "DELETE FROM billing_portal_sessions WHERE user_id = ?",
    "DELETE FROM worker_profiles WHERE user_id = ?",
};
constexpr const char* kEmailOf = "SELECT email FROM users WHERE id = ? AND deleted_at IS NULL";
constexpr const char* kScrubAuditEmail = "UPDATE audit_log SET actor_email = NULL WHERE actor_id = ? AND actor_email IS NOT NULL";
// A scan of the log, once per closed account. REPLACE(x, a, b) <> x finds the rows on both engines
// without a LIKE pattern (an address may hold '_', a LIKE wildcard).
constexpr const char* kScrubAuditText =
    "UPDATE audit_log SET before_json = REPLACE(before_json, ?, ?), after_json = REPLACE(after_json, ?, ?), "
    "detail = REPLACE(detail, ?, ?) WHERE before_json <> REPLACE(before_json, ?, ?) "
    "OR after_json <> REPLACE(after_json, ?, ?) OR detail <> REPLACE(detail, ?, ?)";

} // namespace

std::vector<LiveSubscription> ClosingRepository::liveSubscriptions(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kLiveSubscriptions).bind(userId).all([](const db::Row& r) {
        return LiveSubscription{r.text("id"), r.text("payment_provider"), r.optText("provider_subscription_id")};
    });
}

std::vector<std::string> ClosingRepository::openCheckouts(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kOpenCheckouts).bind(userId).all([](const db::Row& r) { return r.text("id"); });
}

bool ClosingRepository::administersEnterprise(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kAdministers).bind(userId).exists();
}

bool ClosingRepository::isStaffAdmin(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kIsStaffAdmin).bind(userId).exists();
}

void ClosingRepository::cancelSubscriptions(db::Tx& tx, const std::string& userId) {
    tx.query(kCancelSubscriptions).bind(tx.clock().nowTimestamp(), userId).run();
}

void ClosingRepository::anonymiseOrders(db::Tx& tx, const std::string& userId) {
    tx.query(kAnonymiseOrders).bind(kClosedAccount, kClosedAccount, userId).run();
    // The invoices as issued keep their numbers, lines and amounts; the buyer becomes "Closed
    // account" (the delivery address stays: it is part of the supply's record).
    auto documents = tx.query(kInvoiceDocuments).bind(userId).all([](const db::Row& r) {
        return std::pair<std::string, std::string>(r.text("id"), r.text("document"));
    });
    for (const auto& [id, text] : documents) {
        auto document = nlohmann::json::parse(text, nullptr, false);
        if (!document.is_object()) continue;
        auto& buyer = document["buyer"];
        if (!buyer.is_object()) buyer = nlohmann::json::object();
        buyer["name"] = kClosedAccount;
        buyer["email"] = kClosedAccount;
        tx.query(kSetInvoiceDocument).bind(document.dump(), id).run();
    }
}

bool ClosingRepository::tombstone(db::Tx& tx, const std::string& userId) {
    if (!auth::UserRepository().softDelete(tx, userId)) return false;
    for (const char* sql : kDeletes) tx.query(sql).bind(userId).run();
    return true;
}

std::optional<std::string> ClosingRepository::emailOf(db::Tx& tx, const std::string& userId) {
    return tx.query(kEmailOf).bind(userId).text();
}

void ClosingRepository::scrubAuditEmail(db::Tx& tx, const std::string& userId, const std::optional<std::string>& email) {
    tx.query(kScrubAuditEmail).bind(userId).run();
    if (!email || email->empty()) return;
    const std::string& e = *email;
    tx.query(kScrubAuditText).bind(e, kClosedAccount, e, kClosedAccount, e, kClosedAccount, e, kClosedAccount, e, kClosedAccount, e, kClosedAccount).run();
}

} // namespace storefront::privacy
