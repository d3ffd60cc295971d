// CSV exports of the staff lists (docs/backoffice.md, "Exports"): staff admins at aal2 only, the
// list's filters, search and sort applied, RFC 4180 quoting with the formula guard, money in major
// units beside its currency, New Zealand times with their offset, the header alone when nothing
// matches, bad filters 422 with nothing exported, rows read in keyset pages across ties, and one
// audit entry per export.
#include "api/admin_support.h"
#include "api/companion_support.h"
#include "billing/orders/rules.h"

#include <gtest/gtest.h>

#include <Poco/String.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

using namespace testing_support;

namespace {

const std::string kExportBom = "\xEF\xBB\xBF";

// RFC 4180 read back strictly: rows end with CRLF, quoted fields may hold commas, quotes (doubled)
// and line breaks.
std::vector<std::vector<std::string>> exportParseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, inQuotes = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inQuotes) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field.push_back('"');
                ++i;
            } else if (c == '"') {
                inQuotes = false;
            } else {
                field.push_back(c);
            }
        } else if (c == '"' && field.empty() && !quoted) {
            inQuotes = quoted = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            quoted = false;
        } else if (c == '\r') {
            EXPECT_TRUE(i + 1 < text.size() && text[i + 1] == '\n') << "a bare CR outside quotes";
            ++i;
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            quoted = false;
        } else {
            EXPECT_NE(c, '\n') << "a bare LF outside quotes";
            field.push_back(c);
        }
    }
    EXPECT_TRUE(field.empty() && row.empty()) << "the last row has no CRLF";
    return rows;
}

struct ExportedCsv {
    HttpResult res;
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
};

ExportedCsv exportCsv(const std::string& path, const Headers& headers = callers().admin) {
    ExportedCsv csv;
    csv.res = get(path, headers);
    if (csv.res.status != 200) return csv;
    EXPECT_TRUE(csv.res.body.starts_with(kExportBom)) << path;
    auto rows = exportParseCsv(csv.res.body.substr(kExportBom.size()));
    if (rows.empty()) return csv;
    csv.header = rows.front();
    for (std::size_t i = 1; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i].size(), csv.header.size()) << path << " row " << i;
        std::map<std::string, std::string> r;
        for (std::size_t c = 0; c < csv.header.size() && c < rows[i].size(); ++c) r[csv.header[c]] = rows[i][c];
        csv.rows.push_back(std::move(r));
    }
    return csv;
}

std::vector<std::string> exportColumn(const ExportedCsv& csv, const std::string& name) {
    std::vector<std::string> out;
    for (const auto& r : csv.rows) out.push_back(r.at(name));
    return out;
}

// The export audit entries whose detail mentions `tag` (a search term or filter of the test).
std::vector<nlohmann::json> exportEntries(const std::string& tag) {
    std::vector<nlohmann::json> out;
    for (const auto& detail :
         textColumn("SELECT detail FROM audit_log WHERE action = 'list.exported' AND LOWER(detail) LIKE ? ORDER BY created_at, id",
                    {"%" + Poco::toLower(tag) + "%"}))
        out.push_back(nlohmann::json::parse(detail));
    return out;
}

void exportShipTo(const std::string& orderId, const std::string& name) {
    execSql("UPDATE orders SET shipping_name = ?, shipping_line1 = '1 Queen Street', shipping_city = 'Tāmaki Makaurau', "
            "shipping_postal_code = '1010', shipping_country = 'NZ', carrier = 'NZ Post', tracking_number = '+TRACK1' WHERE id = ?",
            {name, orderId});
}

} // namespace

TEST(ExportsApi, OnlyStaffAdminsPastTheTwoFactorStep) {
    for (const auto* path : {"/api/v1/admin/orders/export.csv", "/api/v1/admin/subscriptions/export.csv", "/api/v1/admin/customers/export.csv",
                             "/api/v1/admin/wirewrite/workers/export.csv", "/api/v1/admin/wirewrite/certificates/export.csv"}) {
        const auto before = countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'list.exported'");
        expectStaffOnly("GET", path);
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'list.exported'"), before) << path;
    }
}

TEST(ExportsApi, OrdersAreExportedWithTheListsFiltersQuotedGuardedInMajorUnitsAndNewZealandTime) {
    const auto tag = unique("csv-orders-");
    const auto email = tag + "@example.nz";
    auto winter = insertOrder("paid", 123456, "2026-07-01T00:00:00.000Z", email);            // NZST, +12:00
    auto summer = insertOrder("shipped", 4900, "2026-01-15T00:00:00.000Z", email, {}, "AUD"); // NZDT, +13:00
    auto pending = insertOrder("pending", 5, "2026-08-01T00:00:00.000Z", email);
    exportShipTo(summer.id, "=HYPERLINK(\"x\")");

    auto all = exportCsv("/api/v1/admin/orders/export.csv?q=" + Poco::toUpper(tag));
    ASSERT_EQ(all.res.status, 200) << all.res.body;
    EXPECT_EQ(all.res.header("content-type"), "text/csv; charset=utf-8");
    EXPECT_EQ(all.res.header("transfer-encoding"), "chunked");
    EXPECT_EQ(all.res.header("cache-control"), "no-store");
    const auto disposition = all.res.header("content-disposition");
    EXPECT_TRUE(disposition.starts_with("attachment; filename=\"orders-20")) << disposition;
    EXPECT_TRUE(disposition.ends_with(".csv\"")) << disposition;
    EXPECT_EQ(all.header.front(), "order_number");
    // Newest first, like the list.
    EXPECT_EQ(exportColumn(all, "order_number"), (std::vector<std::string>{pending.orderNumber, winter.orderNumber, summer.orderNumber}));
    const auto& w = all.rows[1];
    EXPECT_EQ(w.at("created_at"), "2026-07-01T12:00:00+12:00");
    EXPECT_EQ(w.at("total"), "1234.56");
    EXPECT_EQ(w.at("currency"), "NZD");
    EXPECT_EQ(w.at("status"), "paid");
    EXPECT_EQ(w.at("customer_email"), email);
    EXPECT_EQ(w.at("order_id"), winter.id);
    const auto& s = all.rows[2];
    EXPECT_EQ(s.at("created_at"), "2026-01-15T13:00:00+13:00");
    EXPECT_EQ(s.at("total"), "49.00");
    EXPECT_EQ(s.at("currency"), "AUD");
    EXPECT_EQ(s.at("customer_name"), "'=HYPERLINK(\"x\")");
    EXPECT_EQ(s.at("ship_to_city"), "Tāmaki Makaurau");
    EXPECT_EQ(s.at("tracking_number"), "'+TRACK1");
    EXPECT_EQ(all.rows[0].at("total"), "0.05");
    // On the wire: guarded, then quoted with its quotes doubled.
    EXPECT_NE(all.res.body.find(",\"'=HYPERLINK(\"\"x\"\")\","), std::string::npos) << all.res.body;

    auto paid = exportCsv("/api/v1/admin/orders/export.csv?status=paid&q=" + tag);
    ASSERT_EQ(paid.res.status, 200);
    EXPECT_EQ(exportColumn(paid, "order_number"), std::vector<std::string>{winter.orderNumber});

    auto entries = exportEntries(tag);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0]["list"], "orders");
    EXPECT_EQ(entries[0]["rows"], 3);
    EXPECT_EQ(entries[0]["completed"], true);
    EXPECT_EQ(entries[0]["filters"]["q"], Poco::toUpper(tag));
    EXPECT_EQ(entries[1]["rows"], 1);
    EXPECT_EQ(entries[1]["filters"]["status"], "paid");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'list.exported' AND target_type = 'export' AND "
                        "target_id = 'orders' AND actor_id = ? AND actor_aal = 'aal2' AND LOWER(detail) LIKE ?",
                        {callers().adminId, "%" + tag + "%"}),
              2);
}

TEST(ExportsApi, AnExportWithNoMatchIsTheHeaderAlone) {
    const auto tag = unique("csv-none-");
    for (const auto& [path, first] : std::vector<std::pair<std::string, std::string>>{
             {"/api/v1/admin/orders/export.csv", "order_number"},
             {"/api/v1/admin/subscriptions/export.csv", "created_at"},
             {"/api/v1/admin/customers/export.csv", "email"},
             {"/api/v1/admin/wirewrite/workers/export.csv", "full_name"},
             {"/api/v1/admin/wirewrite/certificates/export.csv", "certificate_number"}}) {
        auto res = get(path + "?q=" + tag, callers().admin);
        ASSERT_EQ(res.status, 200) << path << res.body;
        EXPECT_TRUE(res.body.starts_with(kExportBom + first + ",")) << path;
        EXPECT_EQ(res.body.find("\r\n"), res.body.size() - 2) << path << ": one line";
    }
    auto entries = exportEntries(tag);
    ASSERT_EQ(entries.size(), 5u);
    for (const auto& e : entries) EXPECT_EQ(e["rows"], 0);
}

TEST(ExportsApi, BadFiltersAre422AndExportNothing) {
    const auto tag = unique("csv-bad-");
    for (const auto& path : {"/api/v1/admin/orders/export.csv?status=lost&q=" + tag, "/api/v1/admin/orders/export.csv?disputed=maybe&q=" + tag,
                             "/api/v1/admin/subscriptions/export.csv?status=paused&q=" + tag,
                             "/api/v1/admin/customers/export.csv?role=owner&q=" + tag,
                             "/api/v1/admin/customers/export.csv?two_factor=yes&q=" + tag,
                             "/api/v1/admin/customers/export.csv?sort=password&q=" + tag,
                             "/api/v1/admin/wirewrite/workers/export.csv?tier=gold&q=" + tag,
                             "/api/v1/admin/wirewrite/workers/export.csv?sort=salary&q=" + tag,
                             "/api/v1/admin/wirewrite/certificates/export.csv?status=void&q=" + tag,
                             "/api/v1/admin/wirewrite/certificates/export.csv?dir=sideways&q=" + tag,
                             "/api/v1/admin/orders/export.csv?q=" + std::string(300, 'x') + tag}) {
        auto res = get(path, callers().admin);
        EXPECT_EQ(res.status, 422) << path << res.body;
        EXPECT_EQ(res.header("content-type"), "application/json; charset=utf-8") << path;
    }
    EXPECT_EQ(exportEntries(tag).size(), 0u);
}

TEST(ExportsApi, EveryRowIsExportedAcrossKeysetPagesOfTiedTimes) {
    // 1,101 orders at one instant: the pages (500 rows a statement) must continue by id, neither
    // repeating nor skipping a row.
    const auto tag = unique("csv-many-");
    const auto at = testClock().timestampAfter(-60);
    std::set<std::string> numbers;
    env().db->write([&](storefront::db::Tx& tx) {
        for (int i = 0; i < 1101; ++i) {
            const auto number = storefront::billing::newOrderNumber();
            numbers.insert(number);
            tx.query("INSERT INTO orders (id, order_number, status, total_amount, currency, customer_email, created_at, updated_at) "
                     "VALUES (?, ?, 'paid', 100, 'NZD', ?, ?, ?)")
                .bind(storefront::db::newId(), number, tag + "@example.nz", at, at)
                .run();
        }
    });
    auto csv = exportCsv("/api/v1/admin/orders/export.csv?q=" + tag + "%40example.nz");
    ASSERT_EQ(csv.res.status, 200);
    auto got = exportColumn(csv, "order_number");
    EXPECT_EQ(got.size(), 1101u);
    EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), numbers);
    auto ids = exportColumn(csv, "order_id");
    EXPECT_TRUE(std::is_sorted(ids.rbegin(), ids.rend())) << "ties newest first by id, descending";
    ASSERT_EQ(exportEntries(tag).size(), 1u);
    EXPECT_EQ(exportEntries(tag)[0]["rows"], 1101);
}

TEST(ExportsApi, SubscriptionsAreExportedWithTheirFilters) {
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    auto user = createUser("csv-subs");
    const auto tag = user.email.substr(0, user.email.find('@'));
    auto insert = [&](const std::string& status, const std::string& at, const std::optional<std::string>& plan) {
        const auto id = storefront::db::newId();
        execSql("INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, current_period_end, "
                "created_at, updated_at) VALUES (?, ?, ?, " + std::string(plan ? "?" : "NULL") + ", ?, 'stripe', '2027-01-01T00:00:00.000Z', ?, ?)",
                plan ? std::vector<std::string>{id, user.id, product.id, *plan, status, at, at}
                     : std::vector<std::string>{id, user.id, product.id, status, at, at});
        return id;
    };
    const auto old = insert("cancelled", "2026-03-01T00:00:00.000Z", std::nullopt);
    const auto live = insert("active", "2026-05-01T00:00:00.000Z", planId);

    auto all = exportCsv("/api/v1/admin/subscriptions/export.csv?q=" + tag);
    ASSERT_EQ(all.res.status, 200) << all.res.body;
    EXPECT_EQ(exportColumn(all, "subscription_id"), (std::vector<std::string>{live, old}));
    EXPECT_EQ(all.rows[0].at("status"), "active");
    EXPECT_EQ(all.rows[0].at("customer_email"), user.email);
    EXPECT_FALSE(all.rows[0].at("plan").empty());
    EXPECT_EQ(all.rows[1].at("plan"), "");
    EXPECT_EQ(all.rows[0].at("created_at"), "2026-05-01T12:00:00+12:00");
    EXPECT_EQ(all.rows[0].at("current_period_end"), "2027-01-01T13:00:00+13:00");
    EXPECT_EQ(all.rows[0].at("cancel_at_period_end"), "false");
    EXPECT_TRUE(all.res.header("content-disposition").starts_with("attachment; filename=\"subscriptions-"));

    auto active = exportCsv("/api/v1/admin/subscriptions/export.csv?status=active&q=" + tag);
    EXPECT_EQ(exportColumn(active, "subscription_id"), std::vector<std::string>{live});
    auto entries = exportEntries(tag);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0]["list"], "subscriptions");
    EXPECT_EQ(entries[0]["rows"], 2);
    EXPECT_EQ(entries[1]["filters"]["status"], "active");
}

TEST(ExportsApi, CustomersAreExportedWithTheListsFiltersAndClosedAccountsShowNoPersonalData) {
    const auto tag = unique("csvcust");
    auto plain = createUser(tag + "-plain");
    auto admin = createUser(tag + "-admin");
    grantAdmin(admin.id);
    auto unconfirmed = createUser(tag + "-new", false);
    execSql("UPDATE profiles SET full_name = ? WHERE id = ?", {"=HYPERLINK(\"x\")", plain.id});
    execSql("UPDATE profiles SET full_name = ? WHERE id = ?", {"Aroha " + tag, admin.id});
    auto closed = createUser(tag + "-gone");
    execSql("UPDATE users SET email = NULL, encrypted_password = NULL, deleted_at = ? WHERE id = ?", {testClock().nowTimestamp(), closed.id});
    execSql("DELETE FROM profiles WHERE id = ?", {closed.id});

    auto all = exportCsv("/api/v1/admin/customers/export.csv?q=" + tag + "&sort=email&dir=asc");
    ASSERT_EQ(all.res.status, 200) << all.res.body;
    EXPECT_EQ(exportColumn(all, "user_id"), (std::vector<std::string>{admin.id, unconfirmed.id, plain.id}));
    EXPECT_EQ(all.rows[2].at("full_name"), "'=HYPERLINK(\"x\")");
    EXPECT_NE(all.res.body.find("\"'=HYPERLINK(\"\"x\"\")\""), std::string::npos);
    EXPECT_EQ(all.rows[0].at("admin"), "true");
    EXPECT_EQ(all.rows[2].at("admin"), "false");
    EXPECT_EQ(all.rows[1].at("email_confirmed_at"), "");
    EXPECT_FALSE(all.rows[0].at("email_confirmed_at").empty());
    EXPECT_TRUE(all.rows[0].at("created_at").ends_with(":00")) << all.rows[0].at("created_at");

    // By name too.
    EXPECT_EQ(exportColumn(exportCsv("/api/v1/admin/customers/export.csv?q=aroha%20" + tag), "user_id"), std::vector<std::string>{admin.id});
    EXPECT_EQ(exportColumn(exportCsv("/api/v1/admin/customers/export.csv?role=admin&q=" + tag), "user_id"), std::vector<std::string>{admin.id});
    EXPECT_EQ(exportColumn(exportCsv("/api/v1/admin/customers/export.csv?unconfirmed=true&q=" + tag), "user_id"),
              std::vector<std::string>{unconfirmed.id});
    EXPECT_TRUE(exportCsv("/api/v1/admin/customers/export.csv?two_factor=true&q=" + tag).rows.empty());

    auto closedRows = exportCsv("/api/v1/admin/customers/export.csv?closed=true");
    ASSERT_EQ(closedRows.res.status, 200);
    bool found = false;
    for (const auto& r : closedRows.rows) {
        EXPECT_FALSE(r.at("closed_at").empty());
        EXPECT_EQ(r.at("email"), "Closed account");
        EXPECT_EQ(r.at("full_name"), "");
        if (r.at("user_id") == closed.id) found = true;
    }
    EXPECT_TRUE(found);
    auto entries = exportEntries(tag);
    ASSERT_GE(entries.size(), 5u);
    EXPECT_EQ(entries[0]["list"], "customers");
    EXPECT_EQ(entries[0]["filters"]["sort"], "email");
    EXPECT_EQ(entries[0]["rows"], 3);
}

TEST(ExportsApi, WirewriteWorkersAndCertificatesAreExportedWithTheirFiltersAndSorts) {
    const auto tag = unique("csvww");
    auto named = [&](const std::string& name) {
        auto w = newWorker("csvexport");
        auto res = putJson("/api/v1/wirewrite/me", {{"full_name", name + " " + tag}}, w.headers());
        EXPECT_EQ(res.status, 200) << res.body;
        return w;
    };
    auto zed = named("Zed");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto amy = named("Amy");
    ASSERT_EQ(patchJson("/api/v1/admin/wirewrite/workers/" + amy.workerId, {{"entitlement", "pro"}}, callers().admin).status, 200);
    execSql("UPDATE worker_profiles SET ewrb_licence_number = ? WHERE id = ?", {"@licence", zed.workerId});

    auto byName = exportCsv("/api/v1/admin/wirewrite/workers/export.csv?q=" + tag + "&sort=name&dir=asc");
    ASSERT_EQ(byName.res.status, 200) << byName.res.body;
    EXPECT_EQ(exportColumn(byName, "worker_id"), (std::vector<std::string>{amy.workerId, zed.workerId}));
    EXPECT_EQ(byName.rows[1].at("licence_number"), "'@licence");
    EXPECT_EQ(byName.rows[0].at("tier"), "pro");
    EXPECT_EQ(exportColumn(exportCsv("/api/v1/admin/wirewrite/workers/export.csv?q=" + tag), "worker_id"),
              (std::vector<std::string>{amy.workerId, zed.workerId})); // joined, newest first
    EXPECT_EQ(exportColumn(exportCsv("/api/v1/admin/wirewrite/workers/export.csv?tier=free&q=" + tag), "worker_id"),
              std::vector<std::string>{zed.workerId});

    const auto first =
        postJson("/api/v1/wirewrite/certificates", {{"site_location", "1 " + tag + " Street, Ōtaki"}}, zed.headers()).json()["id"].get<std::string>();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto second =
        postJson("/api/v1/wirewrite/certificates", {{"site_location", "2 " + tag + " Street"}}, zed.headers()).json()["id"].get<std::string>();
    auto issued = postJson("/api/v1/wirewrite/certificates/" + first + "/issue", nlohmann::json::object(), zed.headers());
    ASSERT_EQ(issued.status, 200) << issued.body;

    auto certs = exportCsv("/api/v1/admin/wirewrite/certificates/export.csv?q=" + tag);
    ASSERT_EQ(certs.res.status, 200) << certs.res.body;
    EXPECT_EQ(exportColumn(certs, "certificate_id"), (std::vector<std::string>{second, first}));
    EXPECT_EQ(certs.rows[1].at("site_location"), "1 " + tag + " Street, Ōtaki");
    EXPECT_EQ(certs.rows[1].at("certificate_number"), issued.json()["certificate_number"].get<std::string>());
    EXPECT_EQ(certs.rows[1].at("worker_email"), zed.account.email);
    EXPECT_FALSE(certs.rows[1].at("issued_at").empty());
    EXPECT_EQ(certs.rows[0].at("issued_at"), "");
    // By number, ascending: the draft has no number and comes last.
    EXPECT_EQ(exportColumn(exportCsv("/api/v1/admin/wirewrite/certificates/export.csv?q=" + tag + "&sort=number&dir=asc"), "certificate_id"),
              (std::vector<std::string>{first, second}));
    EXPECT_EQ(exportColumn(exportCsv("/api/v1/admin/wirewrite/certificates/export.csv?status=draft&q=" + tag), "certificate_id"),
              std::vector<std::string>{second});
    auto entries = exportEntries(tag);
    ASSERT_EQ(entries.size(), 6u);
    EXPECT_EQ(entries[0]["list"], "wirewrite-workers");
    EXPECT_EQ(entries[3]["list"], "wirewrite-certificates");
    EXPECT_EQ(entries[3]["rows"], 2);
}
