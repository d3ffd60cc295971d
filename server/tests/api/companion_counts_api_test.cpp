// The WireWrite maintained counts (migration 0012, companion_counts) and the capped search totals:
// every kind of change (insert, issue, entitlement change, delete, a user's deletion cascading,
// the inactivity job's deletion, a many-row statement) leaves the counters equal to real
// COUNT(*)s, and the stats cards and list headings read them; a search with more than
// db::kSearchTotalCap matches answers total = the cap and "total_capped": true, its pages go
// on past the cap, and a search with fewer matches is exact with "total_capped": false.
#include "api/companion_support.h"
#include "companion/inactivity_job.h"
#include "http/paging.h"
#include "mail/module.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace testing_support;
namespace companion = storefront::companion;

namespace {

const std::string kCountsBase = "/api/v1/admin/wirewrite";

// Each counter minus the real count, in one statement (one snapshot): 0 when exact.
struct CountsCheck {
    const char* name;
    const char* sql;
};
const CountsCheck kCountsChecks[] = {
    {"workers_free", "SELECT c.workers_free - (SELECT COUNT(*) FROM worker_profiles WHERE entitlement = 'free') "
                     "FROM companion_counts c WHERE c.id = 1"},
    {"workers_pro", "SELECT c.workers_pro - (SELECT COUNT(*) FROM worker_profiles WHERE entitlement = 'pro') "
                    "FROM companion_counts c WHERE c.id = 1"},
    {"certificates_draft", "SELECT c.certificates_draft - (SELECT COUNT(*) FROM certificates WHERE status = 'draft') "
                           "FROM companion_counts c WHERE c.id = 1"},
    {"certificates_issued", "SELECT c.certificates_issued - (SELECT COUNT(*) FROM certificates WHERE status = 'issued') "
                            "FROM companion_counts c WHERE c.id = 1"},
};

void expectCountsExact(const std::string& step) {
    ASSERT_EQ(countRows("SELECT COUNT(*) FROM companion_counts"), 1) << step;
    for (const auto& check : kCountsChecks) EXPECT_EQ(countRows(check.sql), 0) << step << ": " << check.name << " is off";
    // And what the staff see is those counters.
    auto stats = getJson(kCountsBase + "/stats", staffHeaders());
    ASSERT_EQ(stats.status, 200) << stats.body;
    const auto s = stats.json();
    EXPECT_EQ(s["free_users"].get<std::int64_t>(), countRows("SELECT COUNT(*) FROM worker_profiles WHERE entitlement = 'free'")) << step;
    EXPECT_EQ(s["pro_users"].get<std::int64_t>(), countRows("SELECT COUNT(*) FROM worker_profiles WHERE entitlement = 'pro'")) << step;
    EXPECT_EQ(s["total_certificates"].get<std::int64_t>(), countRows("SELECT COUNT(*) FROM certificates")) << step;
    auto list = getJson(kCountsBase + "/certificates?page_size=1", staffHeaders());
    ASSERT_EQ(list.status, 200) << list.body;
    const auto l = list.json();
    EXPECT_EQ(l["counts"]["draft"].get<std::int64_t>(), countRows("SELECT COUNT(*) FROM certificates WHERE status = 'draft'")) << step;
    EXPECT_EQ(l["total"], l["counts"]["all"]) << step;
    EXPECT_EQ(l["total_capped"], false) << step;
}

std::string countsCertificate(const WorkerSession& w, const std::string& site) {
    auto res = postJson("/api/v1/wirewrite/certificates", {{"site_location", site}}, w.headers());
    if (res.status != 201) throw std::runtime_error("create certificate: " + res.body);
    return res.json()["id"].get<std::string>();
}

// `n` certificates of `workerId` with `site`, in one transaction of many-row INSERTs: drafts, or
// issued ones with numbers WW-2099-<tag><i>.
void countsBulkCertificates(const std::string& workerId, const std::string& site, int n, bool issued, const std::string& tag) {
    constexpr int kRowsPerStatement = 200;
    env().db->write([&](storefront::db::Tx& tx) {
        for (int start = 0; start < n; start += kRowsPerStatement) {
            const int rows = std::min(kRowsPerStatement, n - start);
            std::string sql = "INSERT INTO certificates (id, worker_id, certificate_number, site_location, status, created_at, "
                              "updated_at, issued_at) VALUES ";
            for (int i = 0; i < rows; ++i)
                sql += std::string(i ? ", " : "") + (issued ? "(?, ?, ?, ?, 'issued', ?, ?, ?)" : "(?, ?, NULL, ?, 'draft', ?, ?, NULL)");
            auto q = tx.query(sql);
            for (int i = 0; i < rows; ++i) {
                const auto at = testClock().timestampAfter(-(start + i + 1));
                q.bind(storefront::db::newId()).bind(workerId);
                if (issued) q.bind("WW-2099-" + tag + std::to_string(start + i));
                q.bind(site).bind(at).bind(at);
                if (issued) q.bind(at);
            }
            q.run();
        }
    });
}

std::string countsEncoded(const std::string& text) {
    std::string out;
    for (char c : text) out += c == ' ' ? std::string("%20") : std::string(1, c);
    return out;
}

} // namespace

TEST(CompanionCountsApi, TheCountersStayExactThroughEveryKindOfChange) {
    expectCountsExact("start");

    auto a = newWorker("counts");
    auto b = newWorker("counts");
    expectCountsExact("two workers created");

    const auto draft1 = countsCertificate(a, "1 Counts Road");
    const auto draft2 = countsCertificate(a, "2 Counts Road");
    countsCertificate(b, "3 Counts Road");
    expectCountsExact("three drafts");

    ASSERT_EQ(postJson("/api/v1/wirewrite/certificates/" + draft1 + "/issue", nlohmann::json::object(), a.headers()).status, 200);
    expectCountsExact("one issued");
    // Issuing again changes nothing (409), and the counts stay.
    ASSERT_EQ(postJson("/api/v1/wirewrite/certificates/" + draft1 + "/issue", nlohmann::json::object(), a.headers()).status, 409);
    expectCountsExact("issued twice");
    // Updating a draft is an UPDATE that changes no count.
    ASSERT_EQ(patchJson("/api/v1/wirewrite/certificates/" + draft2, {{"site_location", "2a Counts Road"}}, a.headers()).status, 200);
    expectCountsExact("draft updated");

    ASSERT_EQ(patchJson(kCountsBase + "/workers/" + a.workerId, {{"entitlement", "pro"}}, staffHeaders()).status, 200);
    expectCountsExact("staff upgrade");
    ASSERT_EQ(patchJson(kCountsBase + "/workers/" + a.workerId, {{"entitlement", "pro"}}, staffHeaders()).status, 200);
    expectCountsExact("staff upgrade of a pro (no change)");
    ASSERT_EQ(patchJson(kCountsBase + "/workers/" + a.workerId, {{"entitlement", "free"}}, staffHeaders()).status, 200);
    expectCountsExact("staff downgrade");
    // Bad input changes nothing.
    ASSERT_EQ(patchJson(kCountsBase + "/workers/" + a.workerId, {{"entitlement", "gold"}}, staffHeaders()).status, 422);
    expectCountsExact("bad entitlement");
    auto code = createPromo({{"code", newCode("COUNTS")}, {"description", "counts"}, {"duration_months", 1}});
    ASSERT_EQ(postJson("/api/v1/wirewrite/redeem", {{"code", code["code"]}}, b.headers()).status, 200);
    expectCountsExact("redeemed: pro");

    execSql("DELETE FROM certificates WHERE id = ?", {draft2});
    expectCountsExact("a draft deleted");

    // A user's deletion cascades to their worker profile and its certificates.
    execSql("DELETE FROM users WHERE id = ?", {b.account.id});
    ASSERT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ?", {b.workerId}), 0);
    expectCountsExact("a user deleted (cascade)");

    // The inactivity job deletes a free worker quiet for 100 days and warned 20 days ago, with
    // their certificates (one issued, none draft left after the delete above: add one).
    countsCertificate(a, "4 Counts Road");
    execSql("UPDATE worker_profiles SET last_active_at = ?, inactivity_warned_at = ? WHERE id = ?",
            {testClock().timestampAfter(-100 * 86400), testClock().timestampAfter(-20 * 86400), a.workerId});
    companion::Settings settings;
    storefront::mail::Settings mailSettings;
    storefront::mail::Module mail(*env().db, mailSettings);
    companion::CompanionRepository repo(*env().db);
    companion::InactivityJob job(*env().db, repo, mail.outbox(), settings, testClock());
    ASSERT_TRUE(job.run().ran);
    ASSERT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ?", {a.workerId}), 0);
    expectCountsExact("the inactivity job deleted a worker");

    // Many rows in one statement, then all of them through one cascade.
    auto c = newWorker("counts-bulk");
    countsBulkCertificates(c.workerId, "Bulk Lane", 450, false, "");
    countsBulkCertificates(c.workerId, "Bulk Lane", 250, true, storefront::db::newId().substr(0, 8));
    expectCountsExact("700 certificates in 4 statements");
    execSql("DELETE FROM users WHERE id = ?", {c.account.id});
    expectCountsExact("700 certificates deleted by one cascade");
}

TEST(CompanionCountsApi, ASearchCountsAtMostTheCapAndSaysSoAndItsPagesGoOn) {
    ASSERT_EQ(storefront::db::kSearchTotalCap, 10000);
    const auto tag = storefront::db::newId().substr(0, 8);
    auto w = newWorker("capped");
    ASSERT_EQ(putJson("/api/v1/wirewrite/me", {{"full_name", "Capper " + tag}}, w.headers()).status, 200);
    const std::string site = "cap lane " + tag;
    countsBulkCertificates(w.workerId, site, 10000, false, "");
    countsBulkCertificates(w.workerId, site, 2, true, tag);
    expectCountsExact("10,002 certificates added");

    auto list = [&](const std::string& query) {
        auto res = getJson(kCountsBase + "/certificates?" + query, staffHeaders());
        EXPECT_EQ(res.status, 200) << res.body;
        return res.json();
    };
    // More than the cap match, by the certificates' own column and through the worker's name.
    for (const auto& q : {site, "capper " + tag}) {
        SCOPED_TRACE(q);
        auto first = list("q=" + countsEncoded(q));
        EXPECT_EQ(first["total"], 10000);
        EXPECT_EQ(first["total_capped"], true);
        EXPECT_EQ(first["items"].size(), 50u);
        EXPECT_EQ(first["counts"]["all"].get<std::int64_t>(), countRows("SELECT COUNT(*) FROM certificates"));
        // Page 200 is the last the total promises; page 201 still answers the rows past the cap.
        EXPECT_EQ(list("q=" + countsEncoded(q) + "&page=200")["items"].size(), 50u);
        auto past = list("q=" + countsEncoded(q) + "&page=201");
        EXPECT_EQ(past["items"].size(), 2u);
        EXPECT_EQ(past["total_capped"], true);
    }
    auto idsOf = [](const nlohmann::json& json) {
        std::vector<std::string> ids;
        for (const auto& item : json["items"]) ids.push_back(item["id"].get<std::string>());
        return ids;
    };
    // A deep page (OFFSET 500 and more chooses its ids first) holds the rows a shallower read of
    // a bigger page holds, searched and not.
    for (const auto& filter : {"q=" + countsEncoded(site) + "&", std::string("status=draft&")}) {
        SCOPED_TRACE(filter);
        auto wide = idsOf(list(filter + "sort=created&dir=desc&page_size=200&page=3")); // offset 400
        ASSERT_EQ(wide.size(), 200u);
        auto deep = idsOf(list(filter + "sort=created&dir=desc&page_size=50&page=11")); // offset 500
        auto deeper = idsOf(list(filter + "sort=created&dir=desc&page_size=50&page=12"));
        deep.insert(deep.end(), deeper.begin(), deeper.end());
        EXPECT_EQ(deep, std::vector<std::string>(wide.begin() + 100, wide.end()));
    }
    // Terms of one or two characters have no trigram to look up. More than the cap match: by the
    // certificates' own column ("ca", "c") and through the worker only ("pp" is in "Capper", not in
    // the site). The first page and a deep one are the LIKE's rows, in order.
    for (const std::string q : {"ca", "pp", "c"}) {
        SCOPED_TRACE(q);
        const auto expected = searchCertificatesLike(q);
        ASSERT_GT(expected.size(), 10000u);
        auto first = list("q=" + q + "&page_size=200");
        EXPECT_EQ(first["total"], 10000);
        EXPECT_EQ(first["total_capped"], true);
        EXPECT_EQ(idsOf(first), std::vector<std::string>(expected.begin(), expected.begin() + 200));
        auto deep = list("q=" + q + "&page_size=50&page=41"); // offset 2000
        EXPECT_EQ(idsOf(deep), std::vector<std::string>(expected.begin() + 2000, expected.begin() + 2050));
        auto drafts = list("q=" + q + "&status=draft&page_size=100");
        const auto expectedDrafts = searchCertificatesLike(q, "draft");
        EXPECT_EQ(drafts["total"], std::min<std::int64_t>(10000, static_cast<std::int64_t>(expectedDrafts.size())));
        EXPECT_EQ(idsOf(drafts), std::vector<std::string>(expectedDrafts.begin(), expectedDrafts.begin() + 100));
    }
    // Exactly the cap: exact, not capped. Fewer: exact.
    auto drafts = list("q=" + countsEncoded(site) + "&status=draft");
    EXPECT_EQ(drafts["total"], 10000);
    EXPECT_EQ(drafts["total_capped"], false);
    auto issued = list("q=" + countsEncoded(site) + "&status=issued&sort=number&dir=asc");
    EXPECT_EQ(issued["total"], 2);
    EXPECT_EQ(issued["total_capped"], false);
    ASSERT_EQ(issued["items"].size(), 2u);
    EXPECT_EQ(issued["items"][0]["certificate_number"], "WW-2099-" + tag + "0");
    // A whole number: one match.
    auto number = list("q=WW-2099-" + tag + "1");
    EXPECT_EQ(number["total"], 1);
    EXPECT_EQ(number["total_capped"], false);
    // The workers list has the field too (its search totals are exact).
    auto workers = getJson(kCountsBase + "/workers?q=" + countsEncoded("capper " + tag), staffHeaders()).json();
    EXPECT_EQ(workers["total"], 1);
    EXPECT_EQ(workers["total_capped"], false);

    // Leave the shared test database as it was (and count the cascade).
    execSql("DELETE FROM users WHERE id = ?", {w.account.id});
    expectCountsExact("10,002 certificates deleted by one cascade");
    EXPECT_EQ(list("q=" + countsEncoded(site))["total"], 0);
}

// A deep unsearched workers page (OFFSET 500 and more chooses its ids from the sort's index
// first) holds the rows a shallower read of a bigger page holds, for each sort and with the tier
// filter, and each row still carries its certificate count.
TEST(CompanionCountsApi, DeepWorkerPagesHoldTheRowsAShallowerReadHolds) {
    const auto tag = storefront::db::newId().substr(0, 8);
    constexpr int kWorkers = 930; // 620 free: the tier filter reaches offset 600 too
    constexpr int kRowsPerStatement = 155;
    env().db->write([&](storefront::db::Tx& tx) {
        for (int start = 0; start < kWorkers; start += kRowsPerStatement) {
            std::string sql = "INSERT INTO worker_profiles (id, full_name, email, entitlement, last_active_at, created_at, "
                              "updated_at) VALUES ";
            for (int i = 0; i < kRowsPerStatement; ++i) sql += std::string(i ? ", " : "") + "(?, ?, ?, ?, ?, ?, ?)";
            auto q = tx.query(sql);
            for (int i = start; i < start + kRowsPerStatement; ++i) {
                const auto at = testClock().timestampAfter(-(i + 1));
                const auto n = std::to_string(1000 + (i * 7919) % kWorkers); // names not in creation order
                q.bind(storefront::db::newId()).bind("Deep " + tag + " " + n).bind("deep-" + tag + "-" + n + "@example.nz");
                q.bind(i % 3 == 0 ? "pro" : "free").bind(testClock().nowTimestamp()).bind(at).bind(at);
            }
            q.run();
        }
    });
    auto idsOf = [](const std::string& query) {
        auto res = getJson(kCountsBase + "/workers?" + query, staffHeaders());
        EXPECT_EQ(res.status, 200) << res.body;
        std::vector<std::string> ids;
        const auto body = res.json();
        for (const auto& item : body["items"]) {
            EXPECT_TRUE(item["certificates_count"].is_number_integer()) << item.dump();
            ids.push_back(item["id"].get<std::string>());
        }
        return ids;
    };
    for (const std::string sort : {"sort=name&dir=asc", "sort=joined&dir=desc", "sort=tier&dir=desc", "tier=free&sort=name&dir=desc"}) {
        SCOPED_TRACE(sort);
        auto wide = idsOf(sort + "&page_size=200&page=3"); // offset 400
        ASSERT_EQ(wide.size(), 200u);
        auto deep = idsOf(sort + "&page_size=50&page=11"); // offset 500
        auto deeper = idsOf(sort + "&page_size=50&page=12");
        deep.insert(deep.end(), deeper.begin(), deeper.end());
        EXPECT_EQ(deep, std::vector<std::string>(wide.begin() + 100, wide.end()));
    }
    execSql("DELETE FROM worker_profiles WHERE full_name LIKE ?", {"Deep " + tag + " %"});
    expectCountsExact("the deep-page workers deleted");
}
