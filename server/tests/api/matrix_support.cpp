#include "api/matrix_support.h"

#include "api/admin_support.h"
#include "api/companion_support.h"
#include "api/enterprise_support.h"
#include "auth/signing_keys.h"
#include "catalog/image_codec.h"

#include <Poco/Crypto/ECKey.h>
#include <Poco/Data/RecordSet.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JWT/Signer.h>
#include <Poco/JWT/Token.h>
#include <Poco/Timestamp.h>

#include <vips/vips8>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace testing_support {

namespace {

[[noreturn]] void matrixFail(const std::string& what, const HttpResult& r) {
    throw std::runtime_error(what + ": HTTP " + std::to_string(r.status) + " " + r.body);
}

// An ES256 token over `claims` with the same header fields the server writes, signed by a key
// the server has never seen.
std::string forgeToken(const std::string& genuine) {
    auto claims = jwtClaims(genuine);
    auto header = jwtHeader(genuine);
    Poco::SharedPtr<Poco::Crypto::ECKey> key(new Poco::Crypto::ECKey("prime256v1"));
    Poco::JWT::Signer signer(key);
    Poco::JWT::Token token;
    token.setType("JWT");
    if (header.contains("kid")) token.header().set("kid", header["kid"].get<std::string>());
    Poco::JSON::Parser parser;
    token.payload() = *parser.parse(claims.dump()).extract<Poco::JSON::Object::Ptr>();
    return signer.sign(token, "ES256");
}

// The same claims signed with the server's own key, expired ten minutes ago.
std::string expiredToken(const std::string& genuine) {
    auto claims = jwtClaims(genuine);
    const long long now = Poco::Timestamp().epochTime();
    claims["iat"] = now - 4200;
    claims["exp"] = now - 600;
    storefront::auth::SigningKeys keys(*env().db);
    return keys.sign(claims);
}

// A paid monthly subscription of the matrix customer; returns the provider's subscription id.
std::string paidSubscription(const Session& buyer) {
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    auto started = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    if (started.status != 200) matrixFail("subscription checkout", started);
    auto paid = pressButton(started.json()["url"], "pay");
    if (paid.status != 303) matrixFail("pay", paid);
    auto ids = textColumn("SELECT provider_subscription_id FROM subscriptions WHERE user_id = ? AND status = 'active' "
                          "ORDER BY created_at DESC",
                          {buyer.userId});
    if (ids.empty()) throw std::runtime_error("no subscription after paying");
    return ids.front();
}

Cast* makeCast() {
    auto* c = new Cast;
    auto& p = c->principals;
    p.push_back({"visitor", ""});

    c->customer = createUser("matrix-customer");
    c->customerSession = signIn(c->customer, newClientIp());
    p.push_back({"customer_aal1", c->customerSession.accessToken});
    auto me = getJson("/api/v1/wirewrite/me", c->customerSession.headers());
    if (me.status != 200) matrixFail("worker profile", me);
    c->customerWorkerId = me.json()["id"].get<std::string>();
    c->customerSubscription = paidSubscription(c->customerSession); // so the billing portal is theirs

    c->mfaCustomer = createUser("matrix-mfa");
    c->mfaCustomerAal2 = signIn(c->mfaCustomer, newClientIp());
    c->mfaFactor = enrolVerifiedFactor(c->mfaCustomerAal2);
    auto mfaAal1 = signIn(c->mfaCustomer, newClientIp());
    p.push_back({"customer_mfa_aal1", mfaAal1.accessToken});
    p.push_back({"customer_mfa_aal2", c->mfaCustomerAal2.accessToken});

    auto team = createTeam("matrix");
    c->accountId = team.accountId;
    c->teamAdminSession = team.session;
    Account member;
    addNewMember(team, &member);
    p.push_back({"enterprise_member", signIn(member, newClientIp()).accessToken});
    p.push_back({"enterprise_admin_other", createTeam("matrix-other").session.accessToken});
    p.push_back({"enterprise_admin", team.session.accessToken});

    auto staffAdmin = createStaffAdmin(newClientIp());
    p.push_back({"staff_aal1", signIn(staffAdmin.account, newClientIp()).accessToken});
    p.push_back({"staff_aal2", staffAdmin.session.accessToken});

    // The three bad tokens all carry a staff admin's aal2 claims: the most a forger could want.
    p.push_back({"forged_token", forgeToken(staffAdmin.session.accessToken)});
    p.push_back({"expired_token", expiredToken(staffAdmin.session.accessToken)});
    auto leaver = createStaffAdmin(newClientIp());
    auto out = http(env().port, "POST", "/auth/v1/logout?scope=local", "", leaver.session.headers());
    if (out.status != 204) matrixFail("logout", out);
    p.push_back({"signed_out_token", leaver.session.accessToken});
    return c;
}

std::string lastSegment(const std::string& url) { return url.substr(url.rfind('/') + 1); }

} // namespace

std::vector<storefront::http::RouteInfo> serverRoutes() { return env().server->routes(); }

std::string accessName(storefront::http::Access access) {
    using storefront::http::Access;
    switch (access) {
    case Access::Anyone: return "Anyone";
    case Access::SignedInAnyAal: return "SignedInAnyAal";
    case Access::SignedIn: return "SignedIn";
    case Access::EnterpriseAdmin: return "EnterpriseAdmin";
    case Access::StaffAdmin: return "StaffAdmin";
    }
    return "?";
}

const Principal& Cast::get(const std::string& name) const {
    for (const auto& p : principals)
        if (p.name == name) return p;
    throw std::runtime_error("no principal " + name);
}

std::unique_ptr<Cast> newCast() { return std::unique_ptr<Cast>(makeCast()); }

std::vector<std::string> parameterKeys(const std::string& pattern) {
    std::vector<std::string> keys;
    for (auto open = pattern.find('{'); open != std::string::npos; open = pattern.find('{', open + 1)) {
        auto close = pattern.find('}', open);
        if (close == std::string::npos) break;
        keys.push_back(pattern.substr(0, close + 1));
    }
    return keys;
}

Fixtures::Fixtures(Cast& c) : cast_(c) {
    auto shop = createHardware(100000, 1200);
    auto& m = makers_;
    m["/api/v1/products/{slug}"] = [shop] { return shop.slug; };
    m["/product/{slug}"] = [shop] { return shop.slug; };
    m["/uploads/{name}"] = [this] {
        // A real (decodable) PNG: uploads are decoded before they are accepted.
        storefront::catalog::startImageCodec();
        void* buffer = nullptr;
        std::size_t size = 0;
        (vips::VImage::black(8, 8) + 90).cast(VIPS_FORMAT_UCHAR).write_to_buffer(".png", &buffer, &size);
        const std::string png(static_cast<const char*>(buffer), size);
        g_free(buffer);
        auto h = as(newClientIp(), cast_.get("staff_aal2").token);
        h["Content-Type"] = "image/png";
        auto r = http(env().port, "POST", "/api/v1/admin/images", png, h);
        if (r.status != 201) matrixFail("image upload", r);
        return r.json()["image"]["name"].get<std::string>();
    };
    m["/api/v1/admin/products/{id}"] = [] { return createHardware(5).id; };
    m["/api/v1/admin/plans/{id}"] = [] {
        std::string planId;
        createSubscriptionProduct(planId);
        return planId;
    };
    m["/api/v1/admin/orders/{id}"] = [this] {
        return insertOrder("paid", 2500, "2026-01-02T00:00:00.000Z", cast_.customer.email, cast_.customer.id).id;
    };
    // The tax invoice of the subscription the customer paid for when the cast was made.
    m["/api/v1/account/invoices/{number}"] = [this] {
        auto numbers = textColumn("SELECT number FROM tax_invoices WHERE user_id = ? ORDER BY seq", {cast_.customer.id});
        if (numbers.empty()) throw std::runtime_error("the matrix customer has no tax invoice");
        return numbers.front();
    };
    m["/api/v1/admin/invoices/{number}"] = [this] { return value("/api/v1/account/invoices/{number}"); };
    // A failed mail (retried by the staff caller: 200, then 409 for the others past the checks).
    m["/api/v1/admin/mail/{id}"] = [] {
        const auto id = storefront::db::newId();
        env().db->write([&](storefront::db::Tx& tx) {
            const auto at = tx.clock().nowTimestamp();
            tx.query("INSERT INTO mail_outbox (id, kind, to_address, subject, body_text, status, attempts, next_attempt_at, "
                     "last_error, created_at) VALUES (?, 'matrix', 'matrix@example.nz', 'Matrix', 'x', 'failed', 5, ?, 'refused', ?)")
                .bind(id, at, at)
                .run();
        });
        return id;
    };
    m["/api/v1/admin/enquiries/{id}"] = [] {
        const auto id = storefront::db::newId();
        env().db->write([&](storefront::db::Tx& tx) {
            tx.query("INSERT INTO contact_submissions (id, name, email, message, created_at) VALUES (?, 'Matrix', "
                     "'matrix@example.nz', 'Hello', ?)")
                .bind(id, tx.clock().nowTimestamp())
                .run();
        });
        return id;
    };
    m["/api/v1/admin/enterprise-accounts/{id}"] = [this] { return cast_.accountId; };
    m["/api/v1/admin/customers/{id}"] = [] { return createUser("matrix-customer", false).id; };
    m["/api/v1/admin/enterprise-accounts/{id}/licences/{licenceId}"] = [this] {
        return addLicence(cast_.accountId, createLicensableProduct().id, 1);
    };
    m["/api/v1/enterprise/members/{id}"] = [this] {
        auto account = createUser("matrix-member");
        auto r = postJson("/api/v1/enterprise/members", {{"email", account.email}}, cast_.teamAdminSession.headers());
        if (r.status != 201) matrixFail("add member", r);
        return r.json()["member"]["id"].get<std::string>();
    };
    // First the customer's verified factor; once that is deleted, fresh unverified ones.
    m["/auth/v1/factors/{id}"] = [this] {
        if (!values_.contains("/auth/v1/factors/{id}")) return cast_.mfaFactor.id;
        return enrolFactor(cast_.mfaCustomerAal2).id;
    };
    m["/auth/v1/admin/users/{id}"] = [this] {
        auto account = createUser("matrix-target");
        targets_[account.id] = account;
        return account.id;
    };
    m["/auth/v1/admin/users/{id}/factors/{factorId}"] = [this] {
        const auto& account = targets_.at(value("/auth/v1/admin/users/{id}"));
        return enrolFactor(signIn(account, newClientIp())).id;
    };
    m["/api/v1/account/checkouts/{id}"] = [this, shop] {
        auto r = startCheckout(cast_.customerSession, {{"productSlug", shop.slug}});
        if (r.status != 200) matrixFail("checkout", r);
        return r.json()["checkoutId"].get<std::string>();
    };
    // One of the customer's unpaid orders (its checkout left open).
    m["/api/v1/account/orders/{id}"] = [this, shop] {
        auto r = startCheckout(cast_.customerSession, {{"productSlug", shop.slug}});
        if (r.status != 200) matrixFail("checkout", r);
        return textColumn("SELECT CAST(order_id AS TEXT) FROM checkout_sessions WHERE id = ?", {r.json()["checkoutId"].get<std::string>()})
            .at(0);
    };
    m["/pay/test/{session}"] = [this, shop] {
        auto r = startCheckout(cast_.customerSession, {{"productSlug", shop.slug}});
        if (r.status != 200) matrixFail("checkout", r);
        return r.json()["sessionId"].get<std::string>();
    };
    m["/pay/test/portal/{token}"] = [this] {
        auto r = http(env().port, "POST", "/functions/v1/create-portal-session", "", cast_.customerSession.headers());
        if (r.status != 200) matrixFail("portal session", r);
        return lastSegment(r.json()["url"].get<std::string>());
    };
    // First the one the customer paid for when the cast was made; once cancelled, a new one.
    m["/pay/test/portal/{token}/cancel/{subscription}"] = [this] {
        if (!values_.contains("/pay/test/portal/{token}/cancel/{subscription}")) return cast_.customerSubscription;
        return paidSubscription(cast_.customerSession);
    };
    // The matrix customer's subscription that holds its product (ours, not the provider's id); a
    // new one once it has been cancelled.
    auto heldSubscription = [this] {
        auto ids = textColumn("SELECT CAST(s.id AS TEXT) FROM subscriptions s WHERE s.user_id = (SELECT user_id FROM subscriptions "
                              "WHERE provider_subscription_id = ?) AND s.status IN ('active', 'trialing', 'past_due') "
                              "ORDER BY s.created_at DESC",
                              {cast_.customerSubscription});
        if (!ids.empty()) return ids[0];
        const auto provider = paidSubscription(cast_.customerSession);
        return textColumn("SELECT CAST(id AS TEXT) FROM subscriptions WHERE provider_subscription_id = ?", {provider}).at(0);
    };
    m["/api/v1/account/subscriptions/{id}"] = heldSubscription;
    m["/api/v1/admin/subscriptions/{id}"] = heldSubscription;
    m["/pay/test/subscriptions/{subscription}"] = [this] { return cast_.customerSubscription; };
    m["/api/v1/admin/wirewrite/promo-codes/{id}"] = [] {
        return createPromo({{"code", newCode("MATRIX")}, {"description", "matrix"}, {"duration_months", 1}})["id"].get<std::string>();
    };
    m["/api/v1/admin/wirewrite/workers/{id}"] = [this] { return cast_.customerWorkerId; };
    m["/api/v1/wirewrite/certificates/{id}"] = [this] {
        auto r = postJson("/api/v1/wirewrite/certificates", {{"site_location", "1 Matrix Street"}}, cast_.customerSession.headers());
        if (r.status != 201) matrixFail("certificate", r);
        return r.json()["id"].get<std::string>();
    };
}

std::string Fixtures::value(const std::string& key) {
    if (auto it = values_.find(key); it != values_.end()) return it->second;
    auto maker = makers_.find(key);
    if (maker == makers_.end()) throw std::runtime_error("no fixture for " + key);
    auto v = maker->second();
    values_[key] = v;
    return v;
}

std::string Fixtures::fill(const std::string& pattern, std::string* missing) { return fillWith(pattern, "", "", missing); }

std::string Fixtures::fillWith(const std::string& pattern, const std::string& replaced, const std::string& raw,
                               std::string* missing) {
    std::string out;
    std::size_t from = 0;
    for (const auto& key : parameterKeys(pattern)) {
        const auto open = key.rfind('{');
        if (key == replaced) {
            out += pattern.substr(from, open - from) + raw;
        } else {
            if (!makers_.contains(key)) {
                if (missing) *missing = key;
                return "";
            }
            out += pattern.substr(from, open - from) + value(key);
        }
        from = key.size();
    }
    return out + pattern.substr(from);
}

void Fixtures::refresh(const std::string& pattern) {
    for (const auto& key : parameterKeys(pattern)) {
        auto maker = makers_.find(key);
        if (maker == makers_.end()) continue;
        auto v = maker->second();
        values_[key] = v;
    }
}

// Every SQLite table that holds data: not SQLite's own, and not a search index (an FTS5 virtual
// table and its shadow tables, named <table>_data, _idx, ...), which is derived from the data.
constexpr const char* kSnapshotSqliteTables =
    "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' "
    "AND m.sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND NOT EXISTS (SELECT 1 FROM sqlite_master v "
    "WHERE v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%' AND m.name LIKE v.name || '\\_%' ESCAPE '\\') "
    "ORDER BY m.name";

Snapshot snapshotDatabase(const std::vector<std::string>& except) {
    auto& db = *env().db;
    const bool pg = db.dialect() == storefront::db::Dialect::PostgreSQL;
    const auto tables = textColumn(pg ? "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
                                      : kSnapshotSqliteTables);
    Snapshot out;
    auto s = db.session();
    for (const auto& table : tables) {
        if (std::find(except.begin(), except.end(), table) != except.end()) continue;
        Poco::Data::Statement statement(s);
        statement << "SELECT * FROM " + table;
        statement.execute();
        Poco::Data::RecordSet rs(statement);
        auto& rows = out[table];
        rows.reserve(rs.rowCount());
        for (std::size_t r = 0; r < rs.rowCount(); ++r) {
            std::string line;
            for (std::size_t col = 0; col < rs.columnCount(); ++col) {
                const auto& v = rs.value(col, r);
                line += rs.columnName(col) + "=" + (v.isEmpty() ? std::string("NULL") : v.convert<std::string>()) + "|";
            }
            rows.push_back(std::move(line));
        }
        std::sort(rows.begin(), rows.end());
    }
    return out;
}

std::string snapshotDiff(const Snapshot& before, const Snapshot& after, std::size_t maxLines) {
    std::ostringstream out;
    std::size_t lines = 0;
    auto note = [&](const std::string& text) {
        if (lines++ < maxLines) out << text << "\n";
    };
    for (const auto& [table, rows] : before) {
        auto it = after.find(table);
        if (it == after.end()) {
            note("table " + table + " is gone");
            continue;
        }
        std::vector<std::string> gone, added;
        std::set_difference(rows.begin(), rows.end(), it->second.begin(), it->second.end(), std::back_inserter(gone));
        std::set_difference(it->second.begin(), it->second.end(), rows.begin(), rows.end(), std::back_inserter(added));
        for (const auto& g : gone) note(table + " - " + g.substr(0, 300));
        for (const auto& a : added) note(table + " + " + a.substr(0, 300));
    }
    for (const auto& [table, rows] : after)
        if (!before.contains(table)) note("new table " + table);
    if (lines > maxLines) out << "... " << (lines - maxLines) << " more\n";
    return out.str();
}

} // namespace testing_support
