#pragma once
// SQL for enterprise licences (a quantity of seats of one product for one account, 0003) and their
// seats (which member holds one, 0009); and what a user's seats grant, for billing's
// validate-subscription and dashboard.
#include "db/database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace storefront::enterprise {

struct Licence {
    std::string id;
    std::string accountId;
    std::string productId, productName, productSlug;
    std::int64_t quantity = 0;
    std::int64_t usedCount = 0;
    std::string createdAt;
};

// A product a user may use through an enterprise seat.
struct LicensedProduct {
    std::string productId, slug, name;
};

class LicenceRepository {
public:
    // The account's licences, oldest first.
    std::vector<Licence> forAccount(Poco::Data::Session& s, const std::string& accountId);
    std::optional<Licence> find(Poco::Data::Session& s, const std::string& accountId, const std::string& licenceId);
    bool productExists(Poco::Data::Session& s, const std::string& productId);
    bool existsFor(Poco::Data::Session& s, const std::string& accountId, const std::string& productId);
    std::string insert(db::Tx& tx, const std::string& accountId, const std::string& productId, std::int64_t quantity);
    // Sets the quantity unless it would fall below the seats in use; false when refused.
    bool setQuantity(db::Tx& tx, const std::string& licenceId, std::int64_t quantity);
    // Deletes the licence and (cascade) its seats.
    void remove(db::Tx& tx, const std::string& licenceId);

    // Members of the account without a seat of the licence, longest-standing first, at most `limit`.
    std::vector<std::string> waitingMembers(Poco::Data::Session& s, const std::string& accountId, const std::string& licenceId,
                                            std::int64_t limit);
    // Takes one seat of the licence for the member: the guarded used_count increment, then the seat
    // row. False when every seat is taken.
    bool takeSeat(db::Tx& tx, const std::string& licenceId, const std::string& memberId);
    // Frees every seat the member holds (used_count lowered with them).
    void freeSeatsOf(db::Tx& tx, const std::string& memberId);

    // What the user's seats grant: members (any role) of active accounts holding a seat.
    std::vector<LicensedProduct> licensedProducts(Poco::Data::Session& s, const std::string& userId);
    bool holdsSeat(Poco::Data::Session& s, const std::string& userId, const std::string& productId);
    // Whether the user is a member or the admin of an active enterprise account.
    bool inActiveAccount(Poco::Data::Session& s, const std::string& userId);

    // The first `limit` products of the catalogue (the demo's licences).
    std::vector<std::string> demoProducts(db::Database& db, std::int64_t limit);
};

} // namespace storefront::enterprise
