#include "enterprise/licence_repository.h"

namespace storefront::enterprise {

namespace {

constexpr const char* kLicenceColumns =
    "SELECT CAST(l.id AS TEXT) AS id, CAST(l.enterprise_account_id AS TEXT) AS account_id, "
    "CAST(l.product_id AS TEXT) AS product_id, p.name AS product_name, p.slug AS product_slug, l.quantity, l.used_count, "
    "CAST(l.created_at AS TEXT) AS created_at FROM enterprise_licenses l JOIN products p ON p.id = l.product_id ";
const std::string kLicencesOfAccount =
    std::string(kLicenceColumns) + "WHERE l.enterprise_account_id = ? ORDER BY l.created_at ASC, l.id ASC";
const std::string kLicenceFind = std::string(kLicenceColumns) + "WHERE l.enterprise_account_id = ? AND l.id = ?";
constexpr const char* kLicenceProductExists = "SELECT 1 FROM products WHERE id = ?";
constexpr const char* kLicenceExistsFor =
    "SELECT 1 FROM enterprise_licenses WHERE enterprise_account_id = ? AND product_id = ?";
constexpr const char* kLicenceInsert =
    "INSERT INTO enterprise_licenses (id, enterprise_account_id, product_id, quantity, used_count, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, 0, ?, ?)";
constexpr const char* kLicenceSetQuantity =
    "UPDATE enterprise_licenses SET quantity = ?, updated_at = ? WHERE id = ? AND used_count <= ?";
constexpr const char* kLicenceDelete = "DELETE FROM enterprise_licenses WHERE id = ?";

constexpr const char* kLicenceWaitingMembers =
    "SELECT CAST(m.id AS TEXT) AS id FROM enterprise_members m WHERE m.enterprise_account_id = ? AND NOT EXISTS "
    "(SELECT 1 FROM enterprise_license_seats s WHERE s.license_id = ? AND s.member_id = m.id) "
    "ORDER BY m.added_at ASC, m.id ASC LIMIT ?";
constexpr const char* kLicenceTakeSeat =
    "UPDATE enterprise_licenses SET used_count = used_count + 1, updated_at = ? WHERE id = ? AND used_count < quantity";
constexpr const char* kLicenceInsertSeat =
    "INSERT INTO enterprise_license_seats (license_id, member_id, assigned_at) VALUES (?, ?, ?)";
constexpr const char* kLicenceReleaseSeatsOf =
    "UPDATE enterprise_licenses SET used_count = used_count - 1, updated_at = ? "
    "WHERE id IN (SELECT license_id FROM enterprise_license_seats WHERE member_id = ?)";
constexpr const char* kLicenceDeleteSeatsOf = "DELETE FROM enterprise_license_seats WHERE member_id = ?";

// A seat grants its product while the account is active.
constexpr const char* kLicenceSeatsOfUser =
    "FROM enterprise_license_seats s JOIN enterprise_members m ON m.id = s.member_id "
    "JOIN enterprise_licenses l ON l.id = s.license_id "
    "JOIN enterprise_accounts a ON a.id = m.enterprise_account_id AND a.is_active = TRUE "
    "JOIN products p ON p.id = l.product_id WHERE m.user_id = ? ";
const std::string kLicenceLicensedProducts =
    "SELECT DISTINCT CAST(p.id AS TEXT) AS product_id, p.slug, p.name " + std::string(kLicenceSeatsOfUser) +
    "ORDER BY p.name, product_id";
const std::string kLicenceHoldsSeat = "SELECT 1 " + std::string(kLicenceSeatsOfUser) + "AND l.product_id = ?";
constexpr const char* kLicenceInActiveAccount =
    "SELECT 1 FROM enterprise_members m JOIN enterprise_accounts a ON a.id = m.enterprise_account_id "
    "WHERE m.user_id = ? AND a.is_active = TRUE";
constexpr const char* kLicenceDemoProducts = "SELECT CAST(id AS TEXT) AS id FROM products ORDER BY created_at, id LIMIT ?";

Licence readLicence(const db::Row& r) {
    Licence l;
    l.id = r.text("id");
    l.accountId = r.text("account_id");
    l.productId = r.text("product_id");
    l.productName = r.text("product_name");
    l.productSlug = r.text("product_slug");
    l.quantity = r.int64("quantity");
    l.usedCount = r.int64("used_count");
    l.createdAt = r.timestamp("created_at");
    return l;
}

} // namespace

std::vector<Licence> LicenceRepository::forAccount(Poco::Data::Session& s, const std::string& accountId) {
    return db::query(s, kLicencesOfAccount).bind(accountId).all(readLicence);
}

std::optional<Licence> LicenceRepository::find(Poco::Data::Session& s, const std::string& accountId,
                                                const std::string& licenceId) {
    return db::query(s, kLicenceFind).bind(accountId, licenceId).one(readLicence);
}

bool LicenceRepository::productExists(Poco::Data::Session& s, const std::string& productId) {
    return db::query(s, kLicenceProductExists).bind(productId).exists();
}

bool LicenceRepository::existsFor(Poco::Data::Session& s, const std::string& accountId, const std::string& productId) {
    return db::query(s, kLicenceExistsFor).bind(accountId, productId).exists();
}

std::string LicenceRepository::insert(db::Tx& tx, const std::string& accountId, const std::string& productId,
                                      std::int64_t quantity) {
    const auto id = db::newId();
    const auto now = tx.clock().nowTimestamp();
    tx.query(kLicenceInsert).bind(id, accountId, productId, quantity, now, now).run();
    return id;
}

bool LicenceRepository::setQuantity(db::Tx& tx, const std::string& licenceId, std::int64_t quantity) {
    return tx.query(kLicenceSetQuantity).bind(quantity, tx.clock().nowTimestamp(), licenceId, quantity).changed() == 1;
}

void LicenceRepository::remove(db::Tx& tx, const std::string& licenceId) { tx.query(kLicenceDelete).bind(licenceId).run(); }

std::vector<std::string> LicenceRepository::waitingMembers(Poco::Data::Session& s, const std::string& accountId,
                                                           const std::string& licenceId, std::int64_t limit) {
    return db::query(s, kLicenceWaitingMembers).bind(accountId, licenceId, limit).all([](const db::Row& r) {
        return r.text("id");
    });
}

bool LicenceRepository::takeSeat(db::Tx& tx, const std::string& licenceId, const std::string& memberId) {
    const auto now = tx.clock().nowTimestamp();
    if (tx.query(kLicenceTakeSeat).bind(now, licenceId).changed() != 1) return false;
    tx.query(kLicenceInsertSeat).bind(licenceId, memberId, now).run();
    return true;
}

void LicenceRepository::freeSeatsOf(db::Tx& tx, const std::string& memberId) {
    tx.query(kLicenceReleaseSeatsOf).bind(tx.clock().nowTimestamp(), memberId).run();
    tx.query(kLicenceDeleteSeatsOf).bind(memberId).run();
}

std::vector<LicensedProduct> LicenceRepository::licensedProducts(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kLicenceLicensedProducts).bind(userId).all([](const db::Row& r) {
        return LicensedProduct{r.text("product_id"), r.text("slug"), r.text("name")};
    });
}

bool LicenceRepository::holdsSeat(Poco::Data::Session& s, const std::string& userId, const std::string& productId) {
    return db::query(s, kLicenceHoldsSeat).bind(userId, productId).exists();
}

bool LicenceRepository::inActiveAccount(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kLicenceInActiveAccount).bind(userId).exists();
}

std::vector<std::string> LicenceRepository::demoProducts(db::Database& db, std::int64_t limit) {
    auto s = db.session();
    return db::query(s, kLicenceDemoProducts).bind(limit).all([](const db::Row& r) { return r.text("id"); });
}

} // namespace storefront::enterprise
