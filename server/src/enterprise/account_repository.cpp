#include "enterprise/account_repository.h"

#include "db/list.h"

#include <map>

namespace storefront::enterprise {

namespace {

// An account with its admin's email and its counts (the staff list shows every one).
constexpr const char* kEnterpriseAccountColumns =
    "SELECT CAST(a.id AS TEXT) AS id, CAST(a.admin_user_id AS TEXT) AS admin_user_id, u.email AS admin_email, "
    "a.company_name, a.billing_email, a.max_licenses, a.is_active, CAST(a.created_at AS TEXT) AS created_at, "
    "(SELECT COUNT(*) FROM enterprise_members m WHERE m.enterprise_account_id = a.id) AS member_count, "
    "(SELECT COUNT(*) FROM enterprise_licenses l WHERE l.enterprise_account_id = a.id) AS license_count "
    "FROM enterprise_accounts a LEFT JOIN users u ON u.id = a.admin_user_id ";

const std::string kEnterpriseFindAdministeredBy =
    std::string(kEnterpriseAccountColumns) + "WHERE a.admin_user_id = ? ORDER BY a.created_at ASC, a.id ASC LIMIT 1";
const std::string kEnterpriseFindAccount = std::string(kEnterpriseAccountColumns) + "WHERE a.id = ?";
constexpr const char* kEnterpriseIsAdminOf = "SELECT 1 FROM enterprise_accounts WHERE admin_user_id = ? AND id = ?";

// Staff list: newest first (enterprise_accounts_created_at_idx), optionally searched.
constexpr const char* kEnterpriseSearch =
    "(LOWER(a.company_name) LIKE ? ESCAPE '\\' OR LOWER(a.billing_email) LIKE ? ESCAPE '\\' "
    "OR LOWER(u.email) LIKE ? ESCAPE '\\')";
constexpr const char* kEnterpriseCount =
    "SELECT COUNT(*) FROM enterprise_accounts a LEFT JOIN users u ON u.id = a.admin_user_id ";
constexpr const char* kEnterpriseNewestFirst = "a.created_at DESC, a.id DESC";

constexpr const char* kEnterpriseLockAccount = "UPDATE enterprise_accounts SET updated_at = ? WHERE id = ?";
constexpr const char* kEnterpriseInsertAccount =
    "INSERT INTO enterprise_accounts (id, admin_user_id, company_name, billing_email, max_licenses, is_active, created_at, "
    "updated_at) VALUES (?, ?, ?, ?, ?, TRUE, ?, ?)";
constexpr const char* kEnterpriseUpdateAccount =
    "UPDATE enterprise_accounts SET company_name = COALESCE(?, company_name), billing_email = COALESCE(?, billing_email), "
    "max_licenses = COALESCE(?, max_licenses), updated_at = ? WHERE id = ?";
constexpr const char* kEnterpriseSetActive = "UPDATE enterprise_accounts SET is_active = ?, updated_at = ? WHERE id = ?";

// Members oldest first: the order seats are handed out in (enterprise_members_account_added_at_idx).
constexpr const char* kEnterpriseMemberColumns =
    "SELECT CAST(m.id AS TEXT) AS id, CAST(m.user_id AS TEXT) AS user_id, u.email AS email, p.full_name AS full_name, "
    "m.role, CAST(m.added_at AS TEXT) AS added_at FROM enterprise_members m "
    "LEFT JOIN users u ON u.id = m.user_id LEFT JOIN profiles p ON p.id = m.user_id ";
const std::string kEnterpriseMembersOf =
    std::string(kEnterpriseMemberColumns) + "WHERE m.enterprise_account_id = ? ORDER BY m.added_at ASC, m.id ASC";
const std::string kEnterpriseFindMember =
    std::string(kEnterpriseMemberColumns) + "WHERE m.enterprise_account_id = ? AND m.id = ?";
constexpr const char* kEnterpriseSeatsOfAccount =
    "SELECT CAST(s.member_id AS TEXT) AS member_id, CAST(l.product_id AS TEXT) AS product_id "
    "FROM enterprise_license_seats s JOIN enterprise_licenses l ON l.id = s.license_id "
    "WHERE l.enterprise_account_id = ? ORDER BY s.assigned_at ASC";
constexpr const char* kEnterpriseSeatsOfMember =
    "SELECT CAST(l.product_id AS TEXT) AS product_id FROM enterprise_license_seats s "
    "JOIN enterprise_licenses l ON l.id = s.license_id WHERE s.member_id = ? ORDER BY s.assigned_at ASC";
constexpr const char* kEnterpriseIsMember =
    "SELECT 1 FROM enterprise_members WHERE enterprise_account_id = ? AND user_id = ?";
constexpr const char* kEnterpriseMemberCount = "SELECT COUNT(*) FROM enterprise_members WHERE enterprise_account_id = ?";
constexpr const char* kEnterpriseInsertMember =
    "INSERT INTO enterprise_members (id, enterprise_account_id, user_id, role, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?)";
constexpr const char* kEnterpriseDeleteMember = "DELETE FROM enterprise_members WHERE id = ?";
// enterprise_members_user_id_idx serves it.
constexpr const char* kEnterpriseMembershipsOf =
    "SELECT CAST(m.id AS TEXT) AS id, CAST(a.id AS TEXT) AS account_id, a.company_name, m.role, "
    "CAST(m.added_at AS TEXT) AS added_at FROM enterprise_members m "
    "JOIN enterprise_accounts a ON a.id = m.enterprise_account_id WHERE m.user_id = ? ORDER BY m.added_at ASC, m.id ASC";

Account readEnterpriseAccount(const db::Row& r) {
    Account a;
    a.id = r.text("id");
    a.adminUserId = r.text("admin_user_id");
    a.adminEmail = r.optText("admin_email");
    a.companyName = r.text("company_name");
    a.billingEmail = r.text("billing_email");
    a.maxLicenses = r.int64("max_licenses");
    a.isActive = r.boolean("is_active");
    a.createdAt = r.timestamp("created_at");
    a.memberCount = r.int64("member_count");
    a.licenseCount = r.int64("license_count");
    return a;
}

Member readEnterpriseMember(const db::Row& r) {
    Member m;
    m.id = r.text("id");
    m.userId = r.text("user_id");
    m.email = r.optText("email");
    m.fullName = r.optText("full_name");
    m.role = r.text("role");
    m.addedAt = r.timestamp("added_at");
    return m;
}

} // namespace

std::optional<Account> AccountRepository::findAdministeredBy(const std::string& userId) {
    auto s = db_.session();
    return findAdministeredBy(s, userId);
}

std::optional<Account> AccountRepository::findAdministeredBy(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kEnterpriseFindAdministeredBy).bind(userId).one(readEnterpriseAccount);
}

bool AccountRepository::isAdminOf(const std::string& userId, const std::string& accountId) {
    auto s = db_.session();
    return db::query(s, kEnterpriseIsAdminOf).bind(userId, accountId).exists();
}

std::optional<Account> AccountRepository::find(Poco::Data::Session& s, const std::string& id) {
    return db::query(s, kEnterpriseFindAccount).bind(id).one(readEnterpriseAccount);
}

db::Page<Account> AccountRepository::list(const std::optional<std::string>& search, db::PageQuery page) {
    auto s = db_.session();
    db::Where where(s);
    if (search) {
        const auto p = db::likePattern(*search);
        where.add(kEnterpriseSearch, {p, p, p});
    }
    page.orderBy = kEnterpriseNewestFirst;
    return db::countedPageOf<Account>(s, kEnterpriseAccountColumns, nullptr, kEnterpriseCount, where, page,
                                      readEnterpriseAccount);
}

bool AccountRepository::lock(db::Tx& tx, const std::string& id) {
    return tx.query(kEnterpriseLockAccount).bind(tx.clock().nowTimestamp(), id).changed() == 1;
}

std::string AccountRepository::insert(db::Tx& tx, const NewAccount& a) {
    const auto id = db::newId();
    const auto now = tx.clock().nowTimestamp();
    tx.query(kEnterpriseInsertAccount).bind(id, a.adminUserId, a.companyName, a.billingEmail, a.maxLicenses, now, now).run();
    return id;
}

void AccountRepository::update(db::Tx& tx, const std::string& id, const AccountChanges& c) {
    const auto now = tx.clock().nowTimestamp();
    tx.query(kEnterpriseUpdateAccount).bind(c.companyName, c.billingEmail, c.maxLicenses, now, id).run();
    if (c.isActive) tx.query(kEnterpriseSetActive).bind(*c.isActive, now, id).run();
}

std::vector<Member> AccountRepository::members(Poco::Data::Session& s, const std::string& accountId) {
    auto members = db::query(s, kEnterpriseMembersOf).bind(accountId).all(readEnterpriseMember);
    std::map<std::string, std::vector<std::string>> seats;
    for (auto& [memberId, productId] : db::query(s, kEnterpriseSeatsOfAccount).bind(accountId).all([](const db::Row& r) {
             return std::pair(r.text("member_id"), r.text("product_id"));
         }))
        seats[memberId].push_back(productId);
    for (auto& m : members)
        if (auto it = seats.find(m.id); it != seats.end()) m.seatProductIds = it->second;
    return members;
}

std::optional<Member> AccountRepository::findMember(Poco::Data::Session& s, const std::string& accountId,
                                                    const std::string& memberId) {
    auto member = db::query(s, kEnterpriseFindMember).bind(accountId, memberId).one(readEnterpriseMember);
    if (member)
        member->seatProductIds =
            db::query(s, kEnterpriseSeatsOfMember).bind(memberId).all([](const db::Row& r) { return r.text("product_id"); });
    return member;
}

bool AccountRepository::isMember(Poco::Data::Session& s, const std::string& accountId, const std::string& userId) {
    return db::query(s, kEnterpriseIsMember).bind(accountId, userId).exists();
}

std::int64_t AccountRepository::memberCount(Poco::Data::Session& s, const std::string& accountId) {
    return db::query(s, kEnterpriseMemberCount).bind(accountId).count();
}

std::string AccountRepository::insertMember(db::Tx& tx, const std::string& accountId, const std::string& userId,
                                            const std::string& role, const std::optional<std::string>& addedBy) {
    const auto id = db::newId();
    tx.query(kEnterpriseInsertMember).bind(id, accountId, userId, role, addedBy, tx.clock().nowTimestamp()).run();
    return id;
}

void AccountRepository::deleteMember(db::Tx& tx, const std::string& memberId) {
    tx.query(kEnterpriseDeleteMember).bind(memberId).run();
}

std::vector<Membership> AccountRepository::membershipsOf(Poco::Data::Session& s, const std::string& userId) {
    return db::query(s, kEnterpriseMembershipsOf).bind(userId).all([](const db::Row& r) {
        return Membership{r.text("id"), r.text("account_id"), r.text("company_name"), r.text("role"), r.text("added_at")};
    });
}

} // namespace storefront::enterprise
