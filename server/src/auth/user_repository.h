#pragma once
// SQL for users: the users row, its profile, its roles, and its one-time email links.
#include "db/database.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::auth {

// What staff see in place of a closed account's name and email, on its users row and on the orders
// and tax invoices kept after it (docs/privacy.md).
inline constexpr const char* kClosedAccount = "Closed account";

// A stored user, as read from users.
struct UserRecord {
    std::string id;
    std::optional<std::string> email;
    std::optional<std::string> phone;
    std::optional<std::string> encryptedPassword;
    std::optional<std::string> emailConfirmedAt;
    std::optional<std::string> confirmationSentAt;
    std::optional<std::string> recoverySentAt;
    std::optional<std::string> invitedAt;
    std::optional<std::string> emailChange;
    std::optional<std::string> emailChangeSentAt;
    std::optional<std::string> bannedUntil;
    std::optional<std::string> lastSignInAt;
    nlohmann::json appMetadata = nlohmann::json::object();
    nlohmann::json userMetadata = nlohmann::json::object();
    std::string createdAt;
    std::string updatedAt;
    bool banned(const Clock& clock) const;
};

struct NewUser {
    std::string email; // normalised
    std::optional<std::string> passwordHash;
    nlohmann::json userMetadata = nlohmann::json::object();
    bool confirmed = false;
    std::optional<std::string> invitedAt;
};

// A live one-time link token.
struct LinkToken {
    std::string id, userId, relatesTo;
};

// The enterprise account a user belongs to, as the signed-in shell shows it. role: "admin" when the
// user is the account's admin (enterprise/access.h's rule), else "member".
struct EnterpriseMembership {
    std::string id, name, role;
};

// The profile's full name mirrors user_metadata.full_name (nullopt when it has none).
std::optional<std::string> fullNameOf(const nlohmann::json& userMetadata);

class UserRepository {
public:
    // Users that are not (soft-)deleted.
    std::optional<UserRecord> find(Poco::Data::Session& s, const std::string& id);
    std::optional<UserRecord> findByEmail(Poco::Data::Session& s, const std::string& normalizedEmail);
    std::vector<std::string> roles(Poco::Data::Session& s, const std::string& userId);
    // profiles.full_name (nullopt when unset).
    std::optional<std::string> profileName(Poco::Data::Session& s, const std::string& userId);
    // The account the user administers (the oldest), else the one they are a member of (the
    // earliest joined); nullopt when neither.
    std::optional<EnterpriseMembership> enterpriseOf(Poco::Data::Session& s, const std::string& userId);
    std::int64_t count(Poco::Data::Session& s);
    // Ids, newest first.
    std::vector<std::string> page(Poco::Data::Session& s, std::int64_t limit, std::int64_t offset);

    // Inserts the user and its profile; returns the new id.
    std::string insert(db::Tx& tx, const NewUser& user);
    void setPassword(db::Tx& tx, const std::string& id, const std::string& hash);
    // Replaces user_metadata, and the profile's full_name when asked (nullopt clears it).
    void setUserMetadata(db::Tx& tx, const std::string& id, const nlohmann::json& metadata);
    void setFullName(db::Tx& tx, const std::string& id, const std::optional<std::string>& fullName);
    void setAppMetadata(db::Tx& tx, const std::string& id, const nlohmann::json& metadata);
    // A change waiting for its confirmation link.
    void setPendingEmail(db::Tx& tx, const std::string& id, const std::string& email);
    // The address itself (and the profile's); confirmed now when `confirmNow`.
    void setEmail(db::Tx& tx, const std::string& id, const std::string& email, bool confirmNow);
    void confirmEmail(db::Tx& tx, const std::string& id);
    void setLastSignIn(db::Tx& tx, const std::string& id);
    void setBannedUntil(db::Tx& tx, const std::string& id, const std::optional<std::string>& until);
    void grantAdmin(db::Tx& tx, const std::string& id, const std::optional<std::string>& grantedBy);
    void revokeAdmin(db::Tx& tx, const std::string& id);
    // How many accounts (not closed) hold the admin role: the one "is this the last admin" check
    // (revoking a role, closing an account). On PostgreSQL it locks those role rows until `tx`
    // ends, so two transactions each taking away one of the last two admins cannot both pass.
    std::int64_t countAdmins(db::Tx& tx);
    // Whether a users row exists, and whether it is a closed (soft-deleted) account.
    enum class Presence { Missing, Open, Closed };
    Presence presence(Poco::Data::Session& s, const std::string& id);
    // The same inside a write, with the users row locked on PostgreSQL: `Share` by what must not
    // outlive the account (a checkout being started), `Exclusive` by closing it, so the two never
    // overlap (SQLite's writes are one at a time anyway).
    enum class RowLock { Share, Exclusive };
    Presence lockPresence(db::Tx& tx, const std::string& id, RowLock lock);
    // The one way a users row is closed (the GoTrue admin's soft delete; "Close my account" builds
    // on it): scrubs the address (so it can sign up again), phone, password and metadata, and the
    // profile's address; deletes roles, factors and one-time links; keeps the row with deleted_at.
    // False when the row was already closed (or is missing). Sessions are the caller's to end.
    bool softDelete(db::Tx& tx, const std::string& id);
    void hardDelete(db::Tx& tx, const std::string& id);
    // Rows that keep a user from being deleted outright (a soft deletion keeps them).
    struct DeletionBlockers {
        std::int64_t subscriptions = 0;      // billing records
        std::int64_t enterpriseAccounts = 0; // accounts the user administers
        std::int64_t enterpriseSeats = 0;    // licence seats the user holds as a team member
    };
    DeletionBlockers deletionBlockers(Poco::Data::Session& s, const std::string& id);

    // One-time links. A new link of a type spends the older ones of that type.
    void spendLinks(db::Tx& tx, const std::string& userId, const std::string& type);
    void insertLink(db::Tx& tx, const std::string& userId, const std::string& type, const std::string& tokenHash,
                    const std::string& relatesTo, const std::string& expiresAt);
    // Stamps the user's *_sent_at column for a link of `type`.
    void markLinkSent(db::Tx& tx, const std::string& userId, const std::string& type);
    std::optional<LinkToken> findLiveLink(db::Tx& tx, const std::string& tokenHash, const std::string& type);
    // Spends the link; false when a concurrent request spent it first.
    bool spendLink(db::Tx& tx, const std::string& linkId);
    // Voids what a link emailed before now could still do to the account: its unused recovery,
    // magic and email-change links are spent and the pending new address is dropped. Run by every
    // change to the account's security (a new password, signing out everywhere, a staff reset of
    // two-factor), so a link sent to or asked for by someone else dies with the old access.
    // Returns how many links were voided.
    std::int64_t voidPendingLinks(db::Tx& tx, const std::string& userId);
    // Deletes links spent or expired before `cutoff`.
    void pruneLinks(db::Tx& tx, const std::string& cutoff);
};

} // namespace storefront::auth
