#include "auth/user_repository.h"

#include "db/dialect.h"

#include <stdexcept>

namespace storefront::auth {

namespace {

constexpr const char* kColumns =
    "SELECT CAST(id AS TEXT) AS id, email, phone, encrypted_password, "
    "CAST(email_confirmed_at AS TEXT) AS email_confirmed_at, CAST(confirmation_sent_at AS TEXT) AS confirmation_sent_at, "
    "CAST(recovery_sent_at AS TEXT) AS recovery_sent_at, CAST(invited_at AS TEXT) AS invited_at, email_change, "
    "CAST(email_change_sent_at AS TEXT) AS email_change_sent_at, CAST(banned_until AS TEXT) AS banned_until, "
    "CAST(last_sign_in_at AS TEXT) AS last_sign_in_at, raw_app_meta_data, raw_user_meta_data, "
    "CAST(created_at AS TEXT) AS created_at, CAST(updated_at AS TEXT) AS updated_at FROM users ";
const std::string kFind = std::string(kColumns) + "WHERE id = ? AND deleted_at IS NULL";
const std::string kFindByEmail = std::string(kColumns) + "WHERE lower(email) = ? AND deleted_at IS NULL";
constexpr const char* kRoles = "SELECT role FROM user_roles WHERE user_id = ? ORDER BY role";
constexpr const char* kProfileName = "SELECT full_name FROM profiles WHERE id = ?";
// Administered accounts first (the oldest), then memberships (the earliest joined).
constexpr const char* kEnterpriseOf =
    "SELECT id, company_name, role FROM ("
    "SELECT CAST(a.id AS TEXT) AS id, a.company_name, 'admin' AS role, 0 AS kind, a.created_at AS since "
    "FROM enterprise_accounts a WHERE a.admin_user_id = ? "
    "UNION ALL "
    "SELECT CAST(a.id AS TEXT) AS id, a.company_name, "
    "CASE WHEN a.admin_user_id = m.user_id THEN 'admin' ELSE 'member' END AS role, 1 AS kind, m.added_at AS since "
    "FROM enterprise_members m JOIN enterprise_accounts a ON a.id = m.enterprise_account_id WHERE m.user_id = ?"
    ") e ORDER BY kind, since, id LIMIT 1";
constexpr const char* kCountUsers = "SELECT COUNT(*) FROM users WHERE deleted_at IS NULL";
constexpr const char* kPage =
    "SELECT CAST(id AS TEXT) AS id FROM users WHERE deleted_at IS NULL ORDER BY created_at DESC, id LIMIT ? OFFSET ?";
constexpr const char* kInsertUser =
    "INSERT INTO users (id, email, encrypted_password, email_confirmed_at, invited_at, raw_app_meta_data, "
    "raw_user_meta_data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '{}', ?, ?, ?)";
constexpr const char* kInsertProfile =
    "INSERT INTO profiles (id, email, full_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)";
constexpr const char* kSetPassword = "UPDATE users SET encrypted_password = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetUserMetadata = "UPDATE users SET raw_user_meta_data = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetFullName = "UPDATE profiles SET full_name = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetAppMetadata = "UPDATE users SET raw_app_meta_data = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetPendingEmail = "UPDATE users SET email_change = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetEmail = "UPDATE users SET email = ?, email_change = NULL, updated_at = ? WHERE id = ?";
constexpr const char* kSetEmailConfirmed =
    "UPDATE users SET email = ?, email_change = NULL, email_confirmed_at = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetProfileEmail = "UPDATE profiles SET email = ?, updated_at = ? WHERE id = ?";
constexpr const char* kConfirmEmail =
    "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?), updated_at = ? WHERE id = ?";
constexpr const char* kSetLastSignIn = "UPDATE users SET last_sign_in_at = ?, updated_at = ? WHERE id = ?";
constexpr const char* kSetBannedUntil = "UPDATE users SET banned_until = ?, updated_at = ? WHERE id = ?";
constexpr const char* kGrantAdmin = "INSERT INTO user_roles (user_id, role, granted_at, granted_by) VALUES (?, 'admin', ?, ?)";
constexpr const char* kRevokeAdmin = "DELETE FROM user_roles WHERE user_id = ? AND role = 'admin'";
// Admin role rows of open accounts; PostgreSQL locks them (FOR UPDATE OF r) for the last-admin check.
constexpr const char* kAdminRows =
    "SELECT CAST(r.user_id AS TEXT) AS user_id FROM user_roles r JOIN users u ON u.id = r.user_id "
    "WHERE r.role = 'admin' AND u.deleted_at IS NULL";
constexpr const char* kLockAdminRows = " FOR UPDATE OF r";
constexpr const char* kPresence = "SELECT CAST(deleted_at AS TEXT) AS deleted_at FROM users WHERE id = ?";
constexpr const char* kScrubUser =
    "UPDATE users SET email = NULL, phone = NULL, encrypted_password = NULL, email_change = NULL, "
    "raw_user_meta_data = '{}', raw_app_meta_data = '{}', banned_until = NULL, deleted_at = ?, updated_at = ? "
    "WHERE id = ? AND deleted_at IS NULL";
constexpr const char* kScrubProfile = "UPDATE profiles SET email = NULL, updated_at = ? WHERE id = ?";
constexpr const char* kDeleteRoles = "DELETE FROM user_roles WHERE user_id = ?";
constexpr const char* kDeleteFactors = "DELETE FROM mfa_factors WHERE user_id = ?";
constexpr const char* kDeleteRecoveryCodes = "DELETE FROM mfa_recovery_codes WHERE user_id = ?";
constexpr const char* kDeleteLinks = "DELETE FROM auth_one_time_tokens WHERE user_id = ?";
constexpr const char* kDelete = "DELETE FROM users WHERE id = ?";
// What a hard deletion may not take with it (the foreign keys that RESTRICT it, see 0002, 0003, 0009).
constexpr const char* kSubscriptionsOfUser = "SELECT COUNT(*) FROM subscriptions WHERE user_id = ?";
constexpr const char* kAccountsAdministered = "SELECT COUNT(*) FROM enterprise_accounts WHERE admin_user_id = ?";
constexpr const char* kSeatsHeld =
    "SELECT COUNT(*) FROM enterprise_license_seats s JOIN enterprise_members m ON m.id = s.member_id "
    "WHERE m.user_id = ?";
constexpr const char* kSpendLinks =
    "UPDATE auth_one_time_tokens SET used_at = ? WHERE user_id = ? AND token_type = ? AND used_at IS NULL";
constexpr const char* kVoidPendingLinks =
    "UPDATE auth_one_time_tokens SET used_at = ? WHERE user_id = ? AND token_type IN ('recovery', 'magiclink', 'email_change') "
    "AND used_at IS NULL";
constexpr const char* kDropPendingEmail =
    "UPDATE users SET email_change = NULL, updated_at = ? WHERE id = ? AND email_change IS NOT NULL";
constexpr const char* kInsertLink =
    "INSERT INTO auth_one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, expires_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kConfirmationSent = "UPDATE users SET confirmation_sent_at = ? WHERE id = ?";
constexpr const char* kRecoverySent = "UPDATE users SET recovery_sent_at = ? WHERE id = ?";
constexpr const char* kInviteSent = "UPDATE users SET invited_at = ? WHERE id = ?";
constexpr const char* kEmailChangeSent = "UPDATE users SET email_change_sent_at = ? WHERE id = ?";
constexpr const char* kFindLiveLink =
    "SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, relates_to FROM auth_one_time_tokens "
    "WHERE token_hash = ? AND token_type = ? AND used_at IS NULL AND expires_at > ?";
constexpr const char* kSpendLink = "UPDATE auth_one_time_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL";
constexpr const char* kPruneLinks = "DELETE FROM auth_one_time_tokens WHERE expires_at < ? OR used_at < ?";

nlohmann::json jsonObject(const std::string& text) {
    auto value = nlohmann::json::parse(text, nullptr, false);
    return value.is_object() ? value : nlohmann::json::object();
}

UserRecord readUser(const db::Row& row) {
    UserRecord u;
    u.id = row.text("id");
    u.email = row.optText("email");
    u.phone = row.optText("phone");
    u.encryptedPassword = row.optText("encrypted_password");
    u.emailConfirmedAt = row.optTimestamp("email_confirmed_at");
    u.confirmationSentAt = row.optTimestamp("confirmation_sent_at");
    u.recoverySentAt = row.optTimestamp("recovery_sent_at");
    u.invitedAt = row.optTimestamp("invited_at");
    u.emailChange = row.optText("email_change");
    u.emailChangeSentAt = row.optTimestamp("email_change_sent_at");
    u.bannedUntil = row.optTimestamp("banned_until");
    u.lastSignInAt = row.optTimestamp("last_sign_in_at");
    u.appMetadata = jsonObject(row.text("raw_app_meta_data"));
    u.userMetadata = jsonObject(row.text("raw_user_meta_data"));
    u.createdAt = row.timestamp("created_at");
    u.updatedAt = row.timestamp("updated_at");
    return u;
}

// The *_sent_at column a link type stamps.
const char* linkSentStatement(const std::string& type) {
    if (type == "signup") return kConfirmationSent;
    if (type == "recovery" || type == "magiclink") return kRecoverySent; // GoTrue stamps a magic link there too
    if (type == "invite") return kInviteSent;
    if (type == "email_change") return kEmailChangeSent;
    throw std::invalid_argument("unknown link type " + type);
}

} // namespace

bool UserRecord::banned(const Clock& clock) const { return bannedUntil && *bannedUntil > clock.nowTimestamp(); }

std::optional<std::string> fullNameOf(const nlohmann::json& metadata) {
    auto it = metadata.find("full_name");
    if (it == metadata.end() || !it->is_string() || it->get<std::string>().empty()) return std::nullopt;
    return it->get<std::string>();
}

std::optional<UserRecord> UserRepository::find(Poco::Data::Session& s, const std::string& id) {
    return db::query(s, kFind).bind(id).one(readUser);
}

std::optional<UserRecord> UserRepository::findByEmail(Poco::Data::Session& s, const std::string& normalizedEmail) {
    return db::query(s, kFindByEmail).bind(normalizedEmail).one(readUser);
}

std::vector<std::string> UserRepository::roles(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kRoles).bind(userId).all([](const db::Row& r) { return r.text("role"); });
}

std::optional<std::string> UserRepository::profileName(Poco::Data::Session& s, const std::string& userId) {
    auto name = db::query(s, kProfileName).bind(userId).one([](const db::Row& r) { return r.optText("full_name"); });
    return name ? *name : std::nullopt;
}

std::optional<EnterpriseMembership> UserRepository::enterpriseOf(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kEnterpriseOf).bind(userId, userId).one([](const db::Row& r) {
        return EnterpriseMembership{r.text("id"), r.text("company_name"), r.text("role")};
    });
}

std::int64_t UserRepository::count(Poco::Data::Session& s) { return db::query(s, kCountUsers).count(); }

std::vector<std::string> UserRepository::page(Poco::Data::Session& s, std::int64_t limit, std::int64_t offset) {
    return db::query(s, kPage).bind(limit, offset).all([](const db::Row& r) { return r.text("id"); });
}

std::string UserRepository::insert(db::Tx& tx, const NewUser& u) {
    const auto id = db::newId();
    const auto at = tx.clock().nowTimestamp();
    std::optional<std::string> confirmedAt;
    if (u.confirmed) confirmedAt = at;
    tx.query(kInsertUser).bind(id, u.email, u.passwordHash, confirmedAt, u.invitedAt, u.userMetadata.dump(), at, at).run();
    tx.query(kInsertProfile).bind(id, u.email, fullNameOf(u.userMetadata), at, at).run();
    return id;
}

void UserRepository::setPassword(db::Tx& tx, const std::string& id, const std::string& hash) {
    tx.query(kSetPassword).bind(hash, tx.clock().nowTimestamp(), id).run();
}

void UserRepository::setUserMetadata(db::Tx& tx, const std::string& id, const nlohmann::json& metadata) {
    tx.query(kSetUserMetadata).bind(metadata.dump(), tx.clock().nowTimestamp(), id).run();
}

void UserRepository::setFullName(db::Tx& tx, const std::string& id, const std::optional<std::string>& fullName) {
    tx.query(kSetFullName).bind(fullName, tx.clock().nowTimestamp(), id).run();
}

void UserRepository::setAppMetadata(db::Tx& tx, const std::string& id, const nlohmann::json& metadata) {
    tx.query(kSetAppMetadata).bind(metadata.dump(), tx.clock().nowTimestamp(), id).run();
}

void UserRepository::setPendingEmail(db::Tx& tx, const std::string& id, const std::string& email) {
    tx.query(kSetPendingEmail).bind(email, tx.clock().nowTimestamp(), id).run();
}

void UserRepository::setEmail(db::Tx& tx, const std::string& id, const std::string& email, bool confirmNow) {
    const auto at = tx.clock().nowTimestamp();
    if (confirmNow) tx.query(kSetEmailConfirmed).bind(email, at, at, id).run();
    else tx.query(kSetEmail).bind(email, at, id).run();
    tx.query(kSetProfileEmail).bind(email, at, id).run();
}

void UserRepository::confirmEmail(db::Tx& tx, const std::string& id) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kConfirmEmail).bind(at, at, id).run();
}

void UserRepository::setLastSignIn(db::Tx& tx, const std::string& id) {
    const auto at = tx.clock().nowTimestamp();
    tx.query(kSetLastSignIn).bind(at, at, id).run();
}

void UserRepository::setBannedUntil(db::Tx& tx, const std::string& id, const std::optional<std::string>& until) {
    tx.query(kSetBannedUntil).bind(until, tx.clock().nowTimestamp(), id).run();
}

void UserRepository::grantAdmin(db::Tx& tx, const std::string& id, const std::optional<std::string>& grantedBy) {
    tx.query(kGrantAdmin).bind(id, tx.clock().nowTimestamp(), grantedBy).run();
}

void UserRepository::revokeAdmin(db::Tx& tx, const std::string& id) { tx.query(kRevokeAdmin).bind(id).run(); }

std::int64_t UserRepository::countAdmins(db::Tx& tx) {
    const std::string sql = std::string(kAdminRows) + (db::isSqlite(tx.session()) ? "" : kLockAdminRows);
    return static_cast<std::int64_t>(tx.query(sql).all([](const db::Row& r) { return r.text("user_id"); }).size());
}

UserRepository::Presence UserRepository::presence(Poco::Data::Session& s, const std::string& id) {
    auto row = db::query(s, kPresence).bind(id).one([](const db::Row& r) { return r.optText("deleted_at"); });
    if (!row) return Presence::Missing;
    return *row ? Presence::Closed : Presence::Open;
}

UserRepository::Presence UserRepository::lockPresence(db::Tx& tx, const std::string& id, RowLock lock) {
    std::string sql = kPresence;
    if (!db::isSqlite(tx.session())) sql += lock == RowLock::Share ? " FOR SHARE" : " FOR UPDATE";
    auto row = tx.query(sql).bind(id).one([](const db::Row& r) { return r.optText("deleted_at"); });
    if (!row) return Presence::Missing;
    return *row ? Presence::Closed : Presence::Open;
}

bool UserRepository::softDelete(db::Tx& tx, const std::string& id) {
    const auto at = tx.clock().nowTimestamp();
    if (tx.query(kScrubUser).bind(at, at, id).changed() != 1) return false;
    tx.query(kScrubProfile).bind(at, id).run();
    tx.query(kDeleteRoles).bind(id).run();
    tx.query(kDeleteFactors).bind(id).run();
    tx.query(kDeleteRecoveryCodes).bind(id).run();
    tx.query(kDeleteLinks).bind(id).run();
    return true;
}

void UserRepository::hardDelete(db::Tx& tx, const std::string& id) { tx.query(kDelete).bind(id).run(); }

UserRepository::DeletionBlockers UserRepository::deletionBlockers(Poco::Data::Session& s, const std::string& id) {
    DeletionBlockers b;
    b.subscriptions = db::query(s, kSubscriptionsOfUser).bind(id).count();
    b.enterpriseAccounts = db::query(s, kAccountsAdministered).bind(id).count();
    b.enterpriseSeats = db::query(s, kSeatsHeld).bind(id).count();
    return b;
}

void UserRepository::spendLinks(db::Tx& tx, const std::string& userId, const std::string& type) {
    tx.query(kSpendLinks).bind(tx.clock().nowTimestamp(), userId, type).run();
}

std::int64_t UserRepository::voidPendingLinks(db::Tx& tx, const std::string& userId) {
    const auto at = tx.clock().nowTimestamp();
    const auto voided = static_cast<std::int64_t>(tx.query(kVoidPendingLinks).bind(at, userId).changed());
    tx.query(kDropPendingEmail).bind(at, userId).run();
    return voided;
}

void UserRepository::insertLink(db::Tx& tx, const std::string& userId, const std::string& type, const std::string& tokenHash,
                                const std::string& relatesTo, const std::string& expiresAt) {
    tx.query(kInsertLink).bind(db::newId(), userId, type, tokenHash, relatesTo, tx.clock().nowTimestamp(), expiresAt).run();
}

void UserRepository::markLinkSent(db::Tx& tx, const std::string& userId, const std::string& type) {
    tx.query(linkSentStatement(type)).bind(tx.clock().nowTimestamp(), userId).run();
}

std::optional<LinkToken> UserRepository::findLiveLink(db::Tx& tx, const std::string& tokenHash, const std::string& type) {
    return tx.query(kFindLiveLink).bind(tokenHash, type, tx.clock().nowTimestamp()).one([](const db::Row& r) {
        return LinkToken{r.text("id"), r.text("user_id"), r.text("relates_to")};
    });
}

bool UserRepository::spendLink(db::Tx& tx, const std::string& linkId) {
    return tx.query(kSpendLink).bind(tx.clock().nowTimestamp(), linkId).changed() == 1;
}

void UserRepository::pruneLinks(db::Tx& tx, const std::string& cutoff) { tx.query(kPruneLinks).bind(cutoff, cutoff).run(); }

} // namespace storefront::auth
