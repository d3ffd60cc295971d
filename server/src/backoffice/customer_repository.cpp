#include "backoffice/customer_repository.h"

#include "db/search.h"

namespace storefront::backoffice {

namespace {

// One customer row: the users row, its profile's name, and two flags read per row of the page.
constexpr const char* kCustomerColumns =
    "SELECT CAST(u.id AS TEXT) AS id, u.email, p.full_name, CAST(u.created_at AS TEXT) AS created_at, "
    "CAST(u.last_sign_in_at AS TEXT) AS last_sign_in_at, CAST(u.email_confirmed_at AS TEXT) AS email_confirmed_at, "
    "CAST(u.deleted_at AS TEXT) AS deleted_at, "
    "CASE WHEN EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') THEN 1 ELSE 0 END AS is_admin, "
    "CASE WHEN EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') THEN 1 ELSE 0 END "
    "AS two_factor "
    "FROM users u LEFT JOIN profiles p ON p.id = u.id";
constexpr const char* kCustomerCount = "SELECT COUNT(*) FROM users u LEFT JOIN profiles p ON p.id = u.id";
constexpr const char* kCustomerWhereSearch = "(LOWER(u.email) LIKE ? ESCAPE '\\' OR LOWER(p.full_name) LIKE ? ESCAPE '\\')";
constexpr const char* kCustomerWhereAdmin = "EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin')";
constexpr const char* kCustomerWhereTwoFactor =
    "EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified')";
constexpr const char* kCustomerWhereNoTwoFactor =
    "NOT EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified')";
constexpr const char* kCustomerWhereUnconfirmed = "u.email_confirmed_at IS NULL";
constexpr const char* kCustomerWhereOpen = "u.deleted_at IS NULL";
constexpr const char* kCustomerWhereClosed = "u.deleted_at IS NOT NULL";

const std::string kCustomerFind = std::string(kCustomerColumns) + " WHERE u.id = ?";
constexpr const char* kCustomerAccountExtras =
    "SELECT u.phone, CAST(u.confirmation_sent_at AS TEXT) AS confirmation_sent_at, "
    "CAST(u.recovery_sent_at AS TEXT) AS recovery_sent_at, CAST(u.invited_at AS TEXT) AS invited_at, "
    "CAST(u.banned_until AS TEXT) AS banned_until, "
    "(SELECT CAST(r.granted_at AS TEXT) FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admin_since "
    "FROM users u WHERE u.id = ?";
// orders_user_id_created_at_idx, subscriptions_user_id_created_at_idx, tax_invoices_user_id_seq_idx,
// audit_log_target_idx serve these.
constexpr const char* kCustomerOrders =
    "SELECT CAST(id AS TEXT) AS id, order_number, status, total_amount, currency, CAST(created_at AS TEXT) AS created_at "
    "FROM orders WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?";
constexpr const char* kCustomerSubscriptions =
    "SELECT CAST(s.id AS TEXT) AS id, p.name AS product_name, pp.name AS plan_name, s.status, "
    "CAST(s.current_period_end AS TEXT) AS current_period_end, s.cancel_at_period_end, CAST(s.created_at AS TEXT) AS created_at "
    "FROM subscriptions s JOIN products p ON p.id = s.product_id LEFT JOIN pricing_plans pp ON pp.id = s.pricing_plan_id "
    "WHERE s.user_id = ? ORDER BY s.created_at DESC, s.id DESC LIMIT ?";
constexpr const char* kCustomerInvoices =
    "SELECT CAST(id AS TEXT) AS id, number, kind, currency, total_amount, CAST(order_id AS TEXT) AS order_id, "
    "CAST(issued_at AS TEXT) AS issued_at FROM tax_invoices WHERE user_id = ? ORDER BY seq DESC LIMIT ?";
// The accounts the person owns (enterprise_accounts.admin_user_id) and the teams they are on.
constexpr const char* kCustomerEnterprise =
    "SELECT CAST(a.id AS TEXT) AS account_id, a.company_name, 'owner' AS role, a.is_active FROM enterprise_accounts a "
    "WHERE a.admin_user_id = ? "
    "UNION ALL "
    "SELECT CAST(a.id AS TEXT) AS account_id, a.company_name, m.role, a.is_active FROM enterprise_members m "
    "JOIN enterprise_accounts a ON a.id = m.enterprise_account_id WHERE m.user_id = ? AND a.admin_user_id <> m.user_id "
    "ORDER BY company_name, account_id";
constexpr const char* kCustomerWorker =
    "SELECT CAST(id AS TEXT) AS id, full_name, email, ewrb_licence_number, entitlement, "
    "CAST(pro_expires_at AS TEXT) AS pro_expires_at, CAST(last_active_at AS TEXT) AS last_active_at, "
    "CAST(created_at AS TEXT) AS created_at FROM worker_profiles WHERE user_id = ?";
// Names and dates only: the secret column is never selected.
constexpr const char* kCustomerFactors =
    "SELECT CAST(id AS TEXT) AS id, friendly_name, factor_type, status, CAST(created_at AS TEXT) AS created_at, "
    "CAST(updated_at AS TEXT) AS updated_at FROM mfa_factors WHERE user_id = ? ORDER BY created_at, id";
// The account events that are about signing in (auth/: sessions, factors, links).
constexpr const char* kCustomerSignIns =
    "SELECT CAST(id AS TEXT) AS id, action, CAST(created_at AS TEXT) AS created_at, client_address FROM audit_log "
    "WHERE target_type = 'user' AND target_id = ? AND action IN ('login', 'login_failed', 'logout', 'user_confirmed', "
    "'recovery_link_used', 'invite_accepted', 'mfa_verification_failed', 'mfa_wrong_codes_limit', 'magiclink_used', 'token_reuse_detected', "
    "'session_expired') "
    "ORDER BY created_at DESC, id DESC LIMIT ?";

CustomerRow readCustomer(const db::Row& r) {
    CustomerRow c;
    c.id = r.text("id");
    c.email = r.optText("email");
    c.fullName = r.optText("full_name");
    c.createdAt = r.timestamp("created_at");
    c.lastSignInAt = r.optTimestamp("last_sign_in_at");
    c.emailConfirmedAt = r.optTimestamp("email_confirmed_at");
    c.closedAt = r.optTimestamp("deleted_at");
    c.admin = r.boolean("is_admin");
    c.twoFactor = r.boolean("two_factor");
    return c;
}

} // namespace

// Never signed in sorts last in either direction: "(x IS NULL) ASC" comes before the direction
// SortColumns appends to the column itself.
const db::SortColumns CustomerRepository::kSorts({{"created", "u.created_at"},
                                                  {"email", "LOWER(u.email)"},
                                                  {"last_sign_in", "(u.last_sign_in_at IS NULL) ASC, u.last_sign_in_at"}},
                                                 "u.id", "created");
// The same words for the export's keyset reading, which puts NULLs (never signed in) last itself.
const db::SortColumns CustomerRepository::kExportSorts(
    {{"created", "u.created_at"}, {"email", "LOWER(u.email)"}, {"last_sign_in", "u.last_sign_in_at"}}, "u.id", "created");

namespace {

// The list's and the export's one WHERE.
db::Where whereOf(db::Where where, const CustomerFilter& filter) {
    where.add(filter.closed ? kCustomerWhereClosed : kCustomerWhereOpen, {});
    if (filter.q) {
        const auto pattern = db::likePattern(*filter.q);
        where.add(kCustomerWhereSearch, {pattern, pattern});
    }
    if (filter.admins) where.add(kCustomerWhereAdmin, {});
    if (filter.twoFactor) where.add(*filter.twoFactor ? kCustomerWhereTwoFactor : kCustomerWhereNoTwoFactor, {});
    if (filter.unconfirmed) where.add(kCustomerWhereUnconfirmed, {});
    return where;
}

} // namespace

db::Page<CustomerRow> CustomerRepository::list(const CustomerFilter& filter, db::PageQuery page) {
    auto s = db_.session();
    auto where = whereOf(db::Where(s), filter);
    if (page.orderBy.empty()) page.orderBy = kSorts.orderBy();
    return db::countedPageOf<CustomerRow>(s, kCustomerColumns, nullptr, kCustomerCount, where, page, readCustomer);
}

std::int64_t CustomerRepository::each(const CustomerFilter& filter, const db::SortChoice& sort,
                                       const std::function<void(const CustomerRow&)>& onRow) {
    auto where = whereOf(db::Where(db_.dialect()), filter); // no session held while the download waits
    return db::readAll(db_, kCustomerColumns, where, kExportSorts.keyset(sort), [](const db::Row& r) { return readCustomer(r); }, onRow);
}

std::optional<CustomerDetail> CustomerRepository::find(const std::string& id) {
    auto s = db_.session();
    auto customer = db::query(s, kCustomerFind).bind(id).one(readCustomer);
    if (!customer) return std::nullopt;
    CustomerDetail d;
    d.customer = *customer;
    db::query(s, kCustomerAccountExtras).bind(id).one([&](const db::Row& r) {
        d.phone = r.optText("phone");
        d.confirmationSentAt = r.optTimestamp("confirmation_sent_at");
        d.recoverySentAt = r.optTimestamp("recovery_sent_at");
        d.invitedAt = r.optTimestamp("invited_at");
        d.bannedUntil = r.optTimestamp("banned_until");
        d.adminSince = r.optTimestamp("admin_since");
        return 0;
    });
    d.orders = db::query(s, kCustomerOrders).bind(id, kRelatedLimit).all([](const db::Row& r) {
        return CustomerOrder{r.text("id"), r.text("order_number"), r.text("status"), r.text("currency"), r.timestamp("created_at"),
                             r.int64("total_amount")};
    });
    d.subscriptions = db::query(s, kCustomerSubscriptions).bind(id, kRelatedLimit).all([](const db::Row& r) {
        CustomerSubscription sub;
        sub.id = r.text("id");
        sub.productName = r.text("product_name");
        sub.planName = r.optText("plan_name");
        sub.status = r.text("status");
        sub.currentPeriodEnd = r.optTimestamp("current_period_end");
        sub.cancelAtPeriodEnd = r.boolean("cancel_at_period_end");
        sub.createdAt = r.timestamp("created_at");
        return sub;
    });
    d.invoices = db::query(s, kCustomerInvoices).bind(id, kRelatedLimit).all([](const db::Row& r) {
        CustomerInvoice inv;
        inv.id = r.text("id");
        inv.number = r.text("number");
        inv.kind = r.text("kind");
        inv.currency = r.text("currency");
        inv.totalAmount = r.int64("total_amount");
        inv.orderId = r.optText("order_id");
        inv.issuedAt = r.timestamp("issued_at");
        return inv;
    });
    d.enterprise = db::query(s, kCustomerEnterprise).bind(id, id).all([](const db::Row& r) {
        return CustomerEnterprise{r.text("account_id"), r.text("company_name"), r.text("role"), r.boolean("is_active")};
    });
    d.wirewrite = db::query(s, kCustomerWorker).bind(id).one([](const db::Row& r) {
        CustomerWorker w;
        w.id = r.text("id");
        w.fullName = r.optText("full_name");
        w.email = r.optText("email");
        w.licenceNumber = r.optText("ewrb_licence_number");
        w.entitlement = r.text("entitlement");
        w.proExpiresAt = r.optTimestamp("pro_expires_at");
        w.lastActiveAt = r.optTimestamp("last_active_at");
        w.createdAt = r.timestamp("created_at");
        return w;
    });
    d.factors = db::query(s, kCustomerFactors).bind(id).all([](const db::Row& r) {
        CustomerFactor f;
        f.id = r.text("id");
        f.friendlyName = r.optText("friendly_name");
        f.factorType = r.text("factor_type");
        f.status = r.text("status");
        f.createdAt = r.timestamp("created_at");
        f.updatedAt = r.timestamp("updated_at");
        return f;
    });
    d.signIns = db::query(s, kCustomerSignIns).bind(id, kSignInEvents).all([](const db::Row& r) {
        return SignInEvent{r.text("id"), r.text("action"), r.timestamp("created_at"), r.optText("client_address")};
    });
    return d;
}

} // namespace storefront::backoffice
