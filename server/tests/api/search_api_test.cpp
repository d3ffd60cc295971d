// Substring search through the trigram indexes of migration 0011 (SQLite FTS5 trigram tables kept
// by triggers; PostgreSQL pg_trgm GIN indexes): every answer must be exactly what
// LOWER(col) LIKE '%term%' ESCAPE '\' finds, which these tests run directly on the database as
// the oracle. Covers terms of one and two characters (no trigram: a scan), %, _, \ and " in the
// term, non-ASCII text, a row found by its new text after an update and not by its old one,
// deleted rows (also deleted by a cascade) gone, and both ways a certificates page is read (walking
// the sort's index for a broad term, from the index's matches for a narrow one).
#include "api/admin_support.h"
#include "api/companion_support.h"
#include "companion/companion_repository.h"
#include "db/migrations.h"
#include "http/paging.h"

#include <gtest/gtest.h>

#include <Poco/String.h>
#include <Poco/URI.h>

#include <algorithm>

using namespace testing_support;

namespace {

const std::string kSearchStaffBase = "/api/v1/admin/wirewrite";

std::string searchEncoded(const std::string& term) {
    std::string out;
    Poco::URI::encode(term, "&=+#?%", out);
    return out;
}

// The LIKE the trigram indexes must agree with: the one the lists used before them.
std::string searchPattern(const std::string& term) { return storefront::db::likePattern(term); }

// The oracle: the same LIKE the lists ran before the trigram indexes, newest first.
std::vector<std::string> searchWorkersLike(const std::string& term) {
    auto p = searchPattern(term);
    return textColumn("SELECT CAST(id AS TEXT) FROM worker_profiles WHERE LOWER(full_name) LIKE ? ESCAPE '\\' "
                      "OR LOWER(email) LIKE ? ESCAPE '\\' OR LOWER(ewrb_licence_number) LIKE ? ESCAPE '\\' "
                      "ORDER BY created_at DESC, id DESC",
                      {p, p, p});
}

std::vector<std::string> searchIdsOf(const nlohmann::json& page) {
    std::vector<std::string> out;
    for (const auto& item : page["items"])
        out.push_back(item["id"].get<std::string>());
    return out;
}

std::vector<std::string> searchFirstPage(std::vector<std::string> ids, std::size_t size = 200) {
    if (ids.size() > size) ids.resize(size);
    return ids;
}

// The staff list answers exactly the oracle: total and the first page, in order.
void expectSearchWorkersLikeOracle(const std::string& term) {
    auto res = getJson(kSearchStaffBase + "/workers?page_size=200&q=" + searchEncoded(term), staffHeaders());
    ASSERT_EQ(res.status, 200) << term << ": " << res.body;
    const auto expected = searchWorkersLike(term);
    EXPECT_EQ(res.json()["total"].get<std::int64_t>(), static_cast<std::int64_t>(expected.size())) << term;
    EXPECT_EQ(searchIdsOf(res.json()), searchFirstPage(expected)) << term;
}

void expectSearchCertificatesLikeOracle(const std::string& term, const std::string& status = "") {
    auto res =
        getJson(kSearchStaffBase + "/certificates?page_size=200&q=" + searchEncoded(term) + (status.empty() ? "" : "&status=" + status),
                staffHeaders());
    ASSERT_EQ(res.status, 200) << term << ": " << res.body;
    const auto expected = searchCertificatesLike(term, status);
    EXPECT_EQ(res.json()["total"].get<std::int64_t>(), static_cast<std::int64_t>(expected.size()))
        << term << " " << status;
    EXPECT_EQ(searchIdsOf(res.json()), searchFirstPage(expected)) << term << " " << status;
}

WorkerSession searchNamedWorker(const std::string& name, const std::string& licence) {
    auto w = newWorker("search");
    auto res = putJson("/api/v1/wirewrite/me", {{"full_name", name}, {"ewrb_licence_number", licence}}, w.headers());
    if (res.status != 200) throw std::runtime_error("PUT me: " + res.body);
    return w;
}

std::string searchNewCertificate(const WorkerSession& w, const std::string& site) {
    auto res = postJson("/api/v1/wirewrite/certificates", {{"site_location", site}}, w.headers());
    if (res.status != 201) throw std::runtime_error("POST certificate: " + res.body);
    return res.json()["id"].get<std::string>();
}

void searchRunSql(const std::string& sql, const std::vector<std::string>& params) {
    env().db->write([&](storefront::db::Tx& tx) {
        auto q = tx.query(sql);
        for (const auto& p : params)
            q.bind(p);
        q.run();
    });
}

} // namespace

TEST(SearchApi, WorkerSearchMatchesTheLikeForSpecialCharactersNonAsciiAndShortTerms) {
    const auto tag = unique("srch");
    auto underscore = searchNamedWorker("T\u0101ne 100%_Sure " + tag, "EW-" + tag + "-1");
    auto letterX = searchNamedWorker("T\u0101ne 100%xSure " + tag, "EW-" + tag + "-2");
    auto quoted = searchNamedWorker("Ngaio \"Sparky\" Back\\slash " + tag, "EW-" + tag + "-3");

    // % and _ are literal characters, not wildcards.
    auto res = getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("100%_sure " + tag), staffHeaders());
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(searchIdsOf(res.json()), (std::vector<std::string>{underscore.workerId}));
    EXPECT_EQ(searchIdsOf(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("%XSURE " + tag), staffHeaders()).json()),
              (std::vector<std::string>{letterX.workerId}));
    // A double quote (the FTS5 phrase delimiter) and a backslash (the LIKE escape) are text too.
    EXPECT_EQ(searchIdsOf(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("\"sparky\" back\\slash " + tag), staffHeaders()).json()),
              (std::vector<std::string>{quoted.workerId}));
    for (const std::string& term : std::vector<std::string>{"100%_sure " + tag,
                                                            "%xsure",
                                                            "\"sparky\"",
                                                            "back\\slash",
                                                            "T\u0101ne",
                                                            "t\u0101ne 100",
                                                            "\u0101ne",
                                                            "TĀNE",
                                                            tag,
                                                            "EW-" + tag,
                                                            "ew-" + tag + "-3",
                                                            "@",
                                                            ".",
                                                            "%",
                                                            "_",
                                                            "\\",
                                                            "\"",
                                                            "\u0101",
                                                            "\u0101n",
                                                            "zq",
                                                            "a",
                                                            "  " + tag + "  ",
                                                            "%%",
                                                            "no such " + tag})
        expectSearchWorkersLikeOracle(term);
}

TEST(SearchApi, AWorkerIsFoundByTheirNewNameAfterAnUpdateAndNotAfterDeletion) {
    const auto tag = unique("rename");
    auto w = searchNamedWorker("Old Name " + tag, "EW-" + tag);
    EXPECT_EQ(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("old name " + tag), staffHeaders()).json()["total"], 1);
    ASSERT_EQ(putJson("/api/v1/wirewrite/me",
                      {{"full_name", "Fresh Name " + tag}, {"ewrb_licence_number", "EW-" + tag}}, w.headers())
                  .status,
              200);
    EXPECT_EQ(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("old name " + tag), staffHeaders()).json()["total"], 0);
    EXPECT_EQ(searchIdsOf(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("FRESH NAME " + tag), staffHeaders()).json()),
              (std::vector<std::string>{w.workerId}));
    expectSearchWorkersLikeOracle("name " + tag);

    // Deleting the user cascades to the worker and their certificates: none of it is found.
    auto certificate = searchNewCertificate(w, "7 Gone Lane " + tag);
    EXPECT_EQ(getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded("gone lane " + tag), staffHeaders()).json()["total"], 1);
    searchRunSql("DELETE FROM users WHERE id = ?", {w.account.id});
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM certificates WHERE id = ?", {certificate}), 0);
    EXPECT_EQ(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("fresh name " + tag), staffHeaders()).json()["total"], 0);
    EXPECT_EQ(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded(tag), staffHeaders()).json()["total"], 0);
    auto gone = getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded("gone lane " + tag), staffHeaders());
    EXPECT_EQ(gone.json()["total"], 0);
    EXPECT_TRUE(gone.json()["items"].empty());

    // The next rows (which may reuse the deleted rows' SQLite rowids) are found by their own text only.
    auto next = searchNamedWorker("Next One " + tag, "EW-next-" + tag);
    auto nextCertificate = searchNewCertificate(next, "8 Next Lane " + tag);
    EXPECT_EQ(getJson(kSearchStaffBase + "/workers?q=" + searchEncoded("fresh name " + tag), staffHeaders()).json()["total"], 0);
    EXPECT_EQ(getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded("gone lane " + tag), staffHeaders()).json()["total"], 0);
    EXPECT_EQ(searchIdsOf(getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded("next lane " + tag), staffHeaders()).json()),
              (std::vector<std::string>{nextCertificate}));
}

TEST(SearchApi, CertificateSearchMatchesTheLikeThroughOwnColumnsAndTheWorker) {
    const auto tag = unique("cert");
    auto holder = searchNamedWorker("Pat " + tag + " Holder", "EW-" + tag);
    auto other = searchNamedWorker("Someone Else", "EW-other-" + tag);
    // Matches through its own site and through its worker: counted once.
    auto both = searchNewCertificate(holder, "1 " + tag + " Road");
    auto viaWorker = searchNewCertificate(holder, "2 Plain Road");
    auto viaSite = searchNewCertificate(other, "3 " + tag + " Road, \u014ctautahi");
    auto noSite = postJson("/api/v1/wirewrite/certificates", nlohmann::json::object(), holder.headers());
    ASSERT_EQ(noSite.status, 201);
    auto issued =
        postJson("/api/v1/wirewrite/certificates/" + both + "/issue", nlohmann::json::object(), holder.headers());
    ASSERT_EQ(issued.status, 200) << issued.body;
    const auto number = issued.json()["certificate_number"].get<std::string>();

    auto all = getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded(tag), staffHeaders());
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_EQ(all.json()["total"], 4);
    auto drafts = getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded(tag) + "&status=draft", staffHeaders());
    EXPECT_EQ(drafts.json()["total"], 3);
    auto issuedOnly = getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded(tag) + "&status=issued", staffHeaders());
    EXPECT_EQ(searchIdsOf(issuedOnly.json()), (std::vector<std::string>{both}));
    EXPECT_EQ(searchIdsOf(getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded(tag + " road, \u014c"), staffHeaders()).json()),
              (std::vector<std::string>{viaSite}));
    EXPECT_EQ(getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded(holder.account.email.substr(0, 12)), staffHeaders())
                  .json()["total"]
                  .get<int>(),
              static_cast<int>(searchCertificatesLike(holder.account.email.substr(0, 12)).size()));

    // An updated draft is found by its new site, not its old one.
    ASSERT_EQ(patchJson("/api/v1/wirewrite/certificates/" + viaWorker, {{"site_location", "9 Renamed " + tag + " Way"}},
                        holder.headers())
                  .status,
              200);
    EXPECT_EQ(searchIdsOf(getJson(kSearchStaffBase + "/certificates?q=" + searchEncoded("renamed " + tag), staffHeaders()).json()),
              (std::vector<std::string>{viaWorker}));

    const auto numberTail = number.substr(number.size() - 4);
    for (const std::string& term : std::vector<std::string>{
             tag, tag + " road", "pat " + tag, "\u014ctautahi", "\u014ct", "plain road", "2 plain", "renamed",
             numberTail, number.substr(0, 9), "ww", "w", "%", "_", "\\", "\"", "zz", "no such " + tag})
        for (const std::string status : {"", "draft", "issued"})
            expectSearchCertificatesLikeOracle(term, status);
}

TEST(SearchApi, ACertificatesPageIsTheSameWhetherItWalksTheSortIndexOrUsesTheMatches) {
    const auto tag = unique("path");
    auto holder = searchNamedWorker("Walker " + tag, "EW-" + tag);
    std::vector<std::string> made;
    for (int i = 0; i < 7; ++i)
        made.push_back(searchNewCertificate(holder, std::to_string(i) + " Path " + tag + " Street"));
    auto loner = searchNamedWorker("Loner", "EW-loner-" + tag);
    made.push_back(searchNewCertificate(loner, "8 Path " + tag + " Street"));

    storefront::companion::CompanionRepository repo(*env().db);
    for (const std::string& term :
         std::vector<std::string>{tag, "walker " + tag, "path " + tag + " street", "5 path " + tag, "lk", "8", "p"})
        for (const std::string status : {"", "draft"})
            for (const char* order : {"c.created_at DESC, c.id DESC", "c.created_at ASC, c.id ASC"}) {
                storefront::companion::ListQuery q;
                q.search = term;
                if (!status.empty()) q.filter = status;
                q.orderBy = order;
                q.limit = 3;
                q.offset = 2;
                // scopeRows 1: a walk of the sort index; a billion: the indexed matches, sorted.
                q.scopeRows = 1;
                auto walked = repo.listCertificates(q);
                q.scopeRows = 1'000'000'000;
                auto matched = repo.listCertificates(q);
                auto expected = searchCertificatesLike(term, status);
                if (std::string(order).find("ASC") != std::string::npos) std::reverse(expected.begin(), expected.end());
                std::vector<std::string> expectedPage(expected.begin() + std::min<std::size_t>(2, expected.size()),
                                                      expected.begin() + std::min<std::size_t>(5, expected.size()));
                std::vector<std::string> walkedIds, matchedIds;
                for (const auto& c : walked.items)
                    walkedIds.push_back(c.id);
                for (const auto& c : matched.items)
                    matchedIds.push_back(c.id);
                EXPECT_EQ(walked.total, static_cast<std::int64_t>(expected.size())) << term << " " << status;
                EXPECT_EQ(matched.total, walked.total) << term << " " << status;
                EXPECT_EQ(walkedIds, expectedPage) << term << " " << status << " " << order;
                EXPECT_EQ(matchedIds, expectedPage) << term << " " << status << " " << order;
            }
}

TEST(SearchApi, OrderEmailSearchMatchesTheLikeAfterUpdatesAndDeletes) {
    const auto tag = unique("ord");
    auto a = insertOrder("paid", 1000, "2026-01-02T03:04:05.000Z", "Kiri_" + tag + "@Example.test");
    auto b = insertOrder("pending", 1000, "2026-01-03T03:04:05.000Z", "kirix" + tag + "@example.test");
    auto c = insertOrder("paid", 1000, "2026-01-04T03:04:05.000Z", "\u0101whina+" + tag + "@example.test");
    auto orderIds = [&](const std::string& term) {
        auto res = getJson("/api/v1/admin/orders?page_size=200&q=" + searchEncoded(term), callers().admin);
        EXPECT_EQ(res.status, 200) << term << ": " << res.body;
        std::vector<std::string> ids = searchIdsOf(res.json());
        std::sort(ids.begin(), ids.end());
        return ids;
    };
    auto sorted = [](std::vector<std::string> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    EXPECT_EQ(orderIds("kiri_" + tag), (std::vector<std::string>{a.id}));
    EXPECT_EQ(orderIds("KIRI"), orderIds("kiri")); // case-insensitive
    EXPECT_EQ(orderIds("\u0101whina+" + tag), (std::vector<std::string>{c.id}));
    EXPECT_EQ(orderIds(tag), sorted({a.id, b.id, c.id}));
    searchRunSql("UPDATE orders SET customer_email = ? WHERE id = ?", {"renamed-" + tag + "@example.test", b.id});
    EXPECT_EQ(orderIds("kirix" + tag), std::vector<std::string>{});
    EXPECT_EQ(orderIds("renamed-" + tag), (std::vector<std::string>{b.id}));
    searchRunSql("DELETE FROM order_items WHERE order_id = ?", {a.id});
    searchRunSql("DELETE FROM order_status_history WHERE order_id = ?", {a.id});
    searchRunSql("DELETE FROM orders WHERE id = ?", {a.id});
    EXPECT_EQ(orderIds(tag), sorted({b.id, c.id}));

    // Part of an email (no '@', not an order number): every answer is the LIKE's.
    for (const std::string& term : std::vector<std::string>{tag, "kiri", "example", "e", "xq", "%", "_", "\"", "\u0101",
                                                            "\u0101wh", "no-such-customer-anywhere"}) {
        auto res = getJson("/api/v1/admin/orders?page_size=200&q=" + searchEncoded(term), callers().admin);
        ASSERT_EQ(res.status, 200) << term << ": " << res.body;
        EXPECT_EQ(
            res.json()["total"].get<std::int64_t>(),
            countRows("SELECT COUNT(*) FROM orders WHERE LOWER(customer_email) LIKE ? ESCAPE '\\'", {searchPattern(term)}))
            << term;
    }
}

TEST(SearchApi, MigrationsForOneEngineRunOnlyOnThatEngine) {
    auto& db = *env().db;
    const bool sqlite = db.dialect() == storefront::db::Dialect::SQLite;
    const auto applied =
        textColumn("SELECT version FROM schema_migrations WHERE version LIKE '0011%' ORDER BY version");
    EXPECT_EQ(applied, (std::vector<std::string>{sqlite ? "0011_search.sqlite.sql" : "0011_search.postgres.sql"}));

    // Two scratch migrations, one per engine: only this engine's runs, and only once.
    auto suffix = unique("m");
    for (auto& c : suffix)
        if (c == '-') c = '_';
    const std::vector<storefront::db::EmbeddedSql> files{
        {"9990_" + suffix + ".postgres.sql",
         "CREATE TABLE scratch_pg_" + suffix + " (id TEXT NOT NULL PRIMARY KEY);\n"},
        {"9991_" + suffix + ".sqlite.sql",
         "CREATE TABLE scratch_lite_" + suffix + " (id TEXT NOT NULL PRIMARY KEY);\n"},
    };
    const auto ran = storefront::db::migrate(db, files);
    EXPECT_EQ(ran, (std::vector<std::string>{sqlite ? files[1].name : files[0].name}));
    EXPECT_TRUE(storefront::db::migrate(db, files).empty());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM schema_migrations WHERE version LIKE ?", {"999%" + suffix + "%"}), 1);
    searchRunSql("DROP TABLE " + std::string(sqlite ? "scratch_lite_" : "scratch_pg_") + suffix, {});
    searchRunSql("DELETE FROM schema_migrations WHERE version LIKE ?", {"999%" + suffix + "%"});
}
