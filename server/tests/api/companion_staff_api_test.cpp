// WireWrite staff API (/api/v1/admin/wirewrite/...): staff admins only, every write audited in its
// transaction, lists searched, filtered, sorted and paged on the server, bad input a clear 4xx
// with nothing changed.
#include "api/companion_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

using namespace testing_support;

namespace {

const std::string kBase = "/api/v1/admin/wirewrite";

std::int64_t promoRows() { return countRows("SELECT COUNT(*) FROM promo_codes"); }

// A worker with a searchable name and licence number.
WorkerSession namedWorker(const std::string& name, const std::string& licence) {
    auto w = newWorker("staffview");
    auto res = putJson("/api/v1/wirewrite/me", {{"full_name", name}, {"ewrb_licence_number", licence}}, w.headers());
    if (res.status != 200) throw std::runtime_error("PUT me: " + res.body);
    return w;
}

std::vector<std::string> namesOf(const HttpResult& res) {
    std::vector<std::string> out;
    const auto json = res.json();
    for (const auto& item : json["items"]) out.push_back(item["full_name"].is_null() ? "" : item["full_name"].get<std::string>());
    return out;
}

} // namespace

TEST(CompanionStaffApi, EveryStaffEndpointIsForStaffAdminsPastTheTwoFactorStep) {
    const std::string someId = storefront::db::newId();
    struct Call {
        std::string method, path;
        nlohmann::json body;
    };
    const std::vector<Call> calls = {
        {"GET", kBase + "/stats", nullptr},
        {"GET", kBase + "/promo-codes", nullptr},
        {"POST", kBase + "/promo-codes", {{"code", newCode()}, {"description", "x"}}},
        {"PATCH", kBase + "/promo-codes/" + someId, {{"active", false}}},
        {"GET", kBase + "/workers", nullptr},
        {"PATCH", kBase + "/workers/" + someId, {{"entitlement", "pro"}}},
        {"GET", kBase + "/certificates", nullptr},
    };
    auto customer = newWorker("customer");
    auto adminWithoutFactor = createUser("ww-admin-aal1");
    grantAdmin(adminWithoutFactor.id);
    auto aal1 = signIn(adminWithoutFactor, newClientIp());
    const auto before = promoRows();
    for (const auto& call : calls) {
        auto send = [&](const Headers& h) {
            if (call.body.is_null()) return http(env().port, call.method, call.path, "", h);
            return sendJson(env().port, call.method, call.path, call.body, h);
        };
        EXPECT_EQ(send(as(newClientIp())).status, 401) << call.method << " " << call.path;
        auto denied = send(customer.headers());
        EXPECT_EQ(denied.status, 403) << call.method << " " << call.path;
        EXPECT_EQ(denied.json()["message"], "Access denied. Admin privileges required.");
        EXPECT_EQ(send(aal1.headers()).status, 403) << call.method << " " << call.path;
    }
    EXPECT_EQ(promoRows(), before);
}

TEST(CompanionStaffApi, StatsCountWorkersCertificatesRedemptionsAndInactiveAccounts) {
    auto first = getJson(kBase + "/stats", staffHeaders());
    ASSERT_EQ(first.status, 200) << first.body;
    auto s0 = first.json();
    EXPECT_EQ(s0["companion_app_url"], "https://wirewrite.signalcraft.co.nz");
    EXPECT_EQ(s0["inactive_days"], 75);
    // The test servers deliver through an SMTP relay: configured.
    EXPECT_EQ(s0["system"]["email_configured"], true);
    EXPECT_EQ(s0["system"]["inactivity_deletion_enabled"], true);
    EXPECT_EQ(s0["system"]["inactivity_deletion_days"], 90);

    auto a = newWorker("stats");
    auto b = newWorker("stats");
    ASSERT_EQ(postJson("/api/v1/wirewrite/certificates", {{"site_location", "1 Stats Road"}}, a.headers()).status, 201);
    auto code = createPromo({{"code", newCode("STATS")}, {"description", "stats"}});
    ASSERT_EQ(postJson("/api/v1/wirewrite/redeem", {{"code", code["code"]}}, b.headers()).status, 200);
    // 80 days quiet (the server's own job runs on the wall clock and would only warn it).
    execSql("UPDATE worker_profiles SET last_active_at = ? WHERE id = ?",
            {testClock().timestampAfter(-80 * 86400), a.workerId});

    auto s1 = getJson(kBase + "/stats", staffHeaders()).json();
    EXPECT_EQ(s1["total_users"].get<int>() - s0["total_users"].get<int>(), 2);
    EXPECT_EQ(s1["free_users"].get<int>() - s0["free_users"].get<int>(), 1);
    EXPECT_EQ(s1["pro_users"].get<int>() - s0["pro_users"].get<int>(), 1);
    EXPECT_EQ(s1["total_certificates"].get<int>() - s0["total_certificates"].get<int>(), 1);
    EXPECT_EQ(s1["promo_codes_used"].get<int>() - s0["promo_codes_used"].get<int>(), 1);
    EXPECT_EQ(s1["inactive_accounts"].get<int>() - s0["inactive_accounts"].get<int>(), 1);
    const double total = s1["total_users"].get<double>(), pro = s1["pro_users"].get<double>();
    EXPECT_NEAR(s1["conversion_rate"].get<double>(), std::round(1000.0 * pro / total) / 10.0, 1e-9);
}

TEST(CompanionStaffApi, APromoCodeIsCreatedUpperCaseAuditedAndListedNewestFirst) {
    const auto code = newCode("NEW");
    auto res = postJson(kBase + "/promo-codes",
                        {{"code", code}, {"description", "  Twelve months  "}, {"duration_months", 12}, {"max_uses", 5}, {"expires_days", 30}},
                        staffHeaders());
    ASSERT_EQ(res.status, 201) << res.body;
    auto p = res.json();
    EXPECT_EQ(p["code"], code);
    EXPECT_EQ(p["description"], "Twelve months");
    EXPECT_EQ(p["entitlement"], "pro");
    EXPECT_EQ(p["duration_months"], 12);
    EXPECT_EQ(p["max_uses"], 5);
    EXPECT_EQ(p["uses_count"], 0);
    EXPECT_EQ(p["active"], true);
    const auto expires = storefront::db::epochFromTimestamp(p["expires_at"].get<std::string>());
    const auto expected = storefront::db::epochFromTimestamp(testClock().timestampAfter(30 * 86400));
    EXPECT_NEAR(static_cast<double>(expires), static_cast<double>(expected), 60);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'promo_code.created' AND target_id = ? AND actor_id = ?",
                        {p["id"].get<std::string>(), companionAdmin().account.id}),
              1);

    auto lifetime = createPromo({{"code", newCode("LIFE")}, {"description", "Lifetime"}});
    EXPECT_TRUE(lifetime["duration_months"].is_null());
    EXPECT_TRUE(lifetime["max_uses"].is_null());
    EXPECT_TRUE(lifetime["expires_at"].is_null());

    auto list = getJson(kBase + "/promo-codes?page_size=2", staffHeaders());
    ASSERT_EQ(list.status, 200);
    EXPECT_EQ(list.json()["page_size"], 2);
    ASSERT_EQ(list.json()["items"].size(), 2u);
    // Newest first; two codes made within the same millisecond tie on created_at and then go by id
    // (descending), as the list's ORDER BY says.
    const bool sameInstant = lifetime["created_at"] == p["created_at"];
    const bool lifetimeFirst = !sameInstant || lifetime["id"].get<std::string>() > p["id"].get<std::string>();
    EXPECT_EQ(list.json()["items"][0]["id"], lifetimeFirst ? lifetime["id"] : p["id"]);
    EXPECT_EQ(list.json()["items"][1]["id"], lifetimeFirst ? p["id"] : lifetime["id"]);
    EXPECT_GE(list.json()["total"].get<int>(), 2);
}

TEST(CompanionStaffApi, BadPromoCodesAreA422NamingTheFieldAndNothingIsStored) {
    const auto before = promoRows();
    const auto good = nlohmann::json{{"code", newCode("BAD")}, {"description", "ok"}};
    struct Case {
        nlohmann::json patch;
        std::string field;
    };
    const std::vector<Case> cases = {
        {{{"code", ""}}, "code"},
        {{{"code", "   "}}, "code"},
        {{{"code", nullptr}}, "code"},
        {{{"code", "lowercase"}}, "code"},
        {{{"code", "HAS SPACE"}}, "code"},
        {{{"code", std::string(41, 'A')}}, "code"},
        {{{"code", 42}}, "code"},
        {{{"description", ""}}, "description"},
        {{{"description", std::string(501, 'd')}}, "description"},
        {{{"description", true}}, "description"},
        {{{"max_uses", 0}}, "max_uses"},
        {{{"max_uses", 1.5}}, "max_uses"},
        {{{"max_uses", "5"}}, "max_uses"},
        {{{"duration_months", 0}}, "duration_months"},
        {{{"duration_months", -3}}, "duration_months"},
        {{{"duration_months", "12"}}, "duration_months"},
        {{{"expires_days", -5}}, "expires_days"},
        {{{"expires_days", 0}}, "expires_days"},
        {{{"expires_days", 100000}}, "expires_days"},
    };
    for (const auto& c : cases) {
        auto body = good;
        body.update(c.patch);
        auto res = postJson(kBase + "/promo-codes", body, staffHeaders());
        EXPECT_EQ(res.status, 422) << c.patch.dump();
        EXPECT_EQ(res.json()["code"], "validation_failed") << c.patch.dump();
        EXPECT_TRUE(res.json()["fields"].contains(c.field)) << c.patch.dump() << " " << res.body;
    }
    EXPECT_EQ(http(env().port, "POST", kBase + "/promo-codes", "[1,2]", {{"Content-Type", "application/json"},
                                                                          {"Authorization", staffHeaders().at("Authorization")}}).status,
              400);
    EXPECT_EQ(promoRows(), before);

    createPromo(good);
    auto duplicate = postJson(kBase + "/promo-codes", good, staffHeaders());
    EXPECT_EQ(duplicate.status, 409);
    EXPECT_EQ(duplicate.json()["code"], "promo_code_taken");
    EXPECT_EQ(promoRows(), before + 1);
}

TEST(CompanionStaffApi, APromoCodeIsDeactivatedAndActivatedWithAnAuditEntry) {
    auto p = createPromo({{"code", newCode("TOGGLE")}, {"description", "toggle"}});
    const auto id = p["id"].get<std::string>();
    auto off = patchJson(kBase + "/promo-codes/" + id, {{"active", false}}, staffHeaders());
    ASSERT_EQ(off.status, 200) << off.body;
    EXPECT_EQ(off.json()["active"], false);
    auto on = patchJson(kBase + "/promo-codes/" + id, {{"active", true}}, staffHeaders());
    EXPECT_EQ(on.json()["active"], true);
    auto entries = textColumn("SELECT before_json FROM audit_log WHERE action = 'promo_code.updated' AND target_id = ? "
                              "ORDER BY created_at",
                              {id});
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(nlohmann::json::parse(entries[0])["active"], true);
    EXPECT_EQ(nlohmann::json::parse(entries[1])["active"], false);

    EXPECT_EQ(patchJson(kBase + "/promo-codes/not-a-uuid", {{"active", false}}, staffHeaders()).status, 404);
    auto unknown = patchJson(kBase + "/promo-codes/" + storefront::db::newId(), {{"active", false}}, staffHeaders());
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "promo_code_not_found");
    for (const auto& body : {nlohmann::json::object(), nlohmann::json{{"active", "no"}}, nlohmann::json{{"active", 0}}}) {
        auto res = patchJson(kBase + "/promo-codes/" + id, body, staffHeaders());
        EXPECT_EQ(res.status, 422) << body.dump();
        EXPECT_TRUE(res.json()["fields"].contains("active"));
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM promo_codes WHERE id = ? AND active = TRUE", {id}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {id}), 3); // created + two updates
}

TEST(CompanionStaffApi, WorkersAreSearchedFilteredSortedAndPagedOnTheServer) {
    const auto tag = unique("tag");
    auto zed = namedWorker("Zed " + tag, "LIC-" + tag + "-1");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto amy = namedWorker("Amy " + tag, "LIC-" + tag + "-2");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto mo = namedWorker("Mo " + tag, "LIC-" + tag + "-3");
    ASSERT_EQ(patchJson(kBase + "/workers/" + amy.workerId, {{"entitlement", "pro"}}, staffHeaders()).status, 200);
    ASSERT_EQ(postJson("/api/v1/wirewrite/certificates", nlohmann::json::object(), mo.headers()).status, 201);
    ASSERT_EQ(postJson("/api/v1/wirewrite/certificates", nlohmann::json::object(), mo.headers()).status, 201);

    auto byName = getJson(kBase + "/workers?q=" + tag, staffHeaders());
    ASSERT_EQ(byName.status, 200) << byName.body;
    EXPECT_EQ(byName.json()["total"], 3);
    // Default: joined, newest first.
    EXPECT_EQ(namesOf(byName), (std::vector<std::string>{"Mo " + tag, "Amy " + tag, "Zed " + tag}));
    EXPECT_EQ(byName.json()["items"][0]["certificates_count"], 2);
    EXPECT_EQ(byName.json()["items"][0]["ewrb_licence_number"], "LIC-" + tag + "-3");
    EXPECT_EQ(byName.json()["items"][0]["email"], mo.account.email);
    const auto counts = byName.json()["counts"];
    EXPECT_EQ(counts["all"].get<int>(), counts["free"].get<int>() + counts["pro"].get<int>());
    EXPECT_GE(counts["pro"].get<int>(), 1);

    EXPECT_EQ(namesOf(getJson(kBase + "/workers?q=" + tag + "&sort=name", staffHeaders())),
              (std::vector<std::string>{"Amy " + tag, "Mo " + tag, "Zed " + tag}));
    EXPECT_EQ(namesOf(getJson(kBase + "/workers?q=" + tag + "&sort=name&dir=desc", staffHeaders())),
              (std::vector<std::string>{"Zed " + tag, "Mo " + tag, "Amy " + tag}));
    EXPECT_EQ(namesOf(getJson(kBase + "/workers?q=" + tag + "&sort=joined&dir=asc", staffHeaders())),
              (std::vector<std::string>{"Zed " + tag, "Amy " + tag, "Mo " + tag}));
    auto byTier = getJson(kBase + "/workers?q=" + tag + "&sort=tier&dir=desc", staffHeaders());
    EXPECT_EQ(byTier.json()["items"][0]["entitlement"], "pro");

    auto pro = getJson(kBase + "/workers?q=" + tag + "&tier=pro", staffHeaders());
    EXPECT_EQ(namesOf(pro), (std::vector<std::string>{"Amy " + tag}));
    EXPECT_EQ(getJson(kBase + "/workers?q=" + tag + "&tier=free", staffHeaders()).json()["total"], 2);

    // Email and licence number are searched too, case-insensitively.
    auto byEmail = getJson(kBase + "/workers?q=" + zed.account.email, staffHeaders());
    EXPECT_EQ(namesOf(byEmail), (std::vector<std::string>{"Zed " + tag}));
    auto byLicence = getJson(kBase + "/workers?q=lic-" + tag + "-2", staffHeaders());
    EXPECT_EQ(namesOf(byLicence), (std::vector<std::string>{"Amy " + tag}));

    auto page2 = getJson(kBase + "/workers?q=" + tag + "&sort=name&page_size=2&page=2", staffHeaders());
    EXPECT_EQ(page2.json()["total"], 3);
    EXPECT_EQ(namesOf(page2), (std::vector<std::string>{"Zed " + tag}));

    for (const std::string bad : {"tier=gold", "sort=email", "dir=up", "page=0", "page_size=500"}) {
        auto res = getJson(kBase + "/workers?" + bad, staffHeaders());
        EXPECT_EQ(res.status, 422) << bad;
        EXPECT_EQ(res.json()["code"], "validation_failed") << bad;
    }
    EXPECT_EQ(getJson(kBase + "/workers?q=%25%25" + tag, staffHeaders()).json()["total"], 0);
}

TEST(CompanionStaffApi, StaffUpgradeAndDowngradeAWorkerWithAnAuditEntry) {
    auto w = newWorker("tier");
    // A pro period from a code: the staff upgrade makes it lifetime.
    auto code = createPromo({{"code", newCode("TIER")}, {"description", "3 months"}, {"duration_months", 3}});
    ASSERT_EQ(postJson("/api/v1/wirewrite/redeem", {{"code", code["code"]}}, w.headers()).status, 200);
    auto up = patchJson(kBase + "/workers/" + w.workerId, {{"entitlement", "pro"}}, staffHeaders());
    ASSERT_EQ(up.status, 200) << up.body;
    EXPECT_EQ(up.json()["entitlement"], "pro");
    EXPECT_TRUE(up.json()["pro_expires_at"].is_null());
    auto down = patchJson(kBase + "/workers/" + w.workerId, {{"entitlement", "free"}}, staffHeaders());
    EXPECT_EQ(down.json()["entitlement"], "free");
    EXPECT_TRUE(down.json()["pro_expires_at"].is_null());
    auto me = getJson("/api/v1/wirewrite/me", w.headers()).json();
    EXPECT_EQ(me["entitlement"], "free");
    EXPECT_EQ(me["pro_active"], false);
    auto entries = textColumn("SELECT after_json FROM audit_log WHERE action = 'worker.entitlement_changed' AND target_id = ? "
                              "ORDER BY created_at",
                              {w.workerId});
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(nlohmann::json::parse(entries[0])["entitlement"], "pro");
    EXPECT_EQ(nlohmann::json::parse(entries[1])["entitlement"], "free");

    for (const auto& body : {nlohmann::json::object(), nlohmann::json{{"entitlement", "gold"}}, nlohmann::json{{"entitlement", "PRO"}},
                             nlohmann::json{{"entitlement", 1}}}) {
        auto res = patchJson(kBase + "/workers/" + w.workerId, body, staffHeaders());
        EXPECT_EQ(res.status, 422) << body.dump();
        EXPECT_TRUE(res.json()["fields"].contains("entitlement"));
    }
    EXPECT_EQ(patchJson(kBase + "/workers/12345", {{"entitlement", "pro"}}, staffHeaders()).status, 404);
    auto unknown = patchJson(kBase + "/workers/" + storefront::db::newId(), {{"entitlement", "pro"}}, staffHeaders());
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "worker_not_found");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ? AND entitlement = 'free'", {w.workerId}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {w.workerId}), 2);
}

TEST(CompanionStaffApi, CertificatesAreSearchedFilteredSortedAndCountedOnTheServer) {
    const auto tag = unique("site");
    auto w = namedWorker("Cert Holder " + tag, "LIC-" + tag);
    auto a = postJson("/api/v1/wirewrite/certificates", {{"site_location", "1 " + tag + " Street"}}, w.headers()).json();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto b = postJson("/api/v1/wirewrite/certificates", {{"site_location", "2 " + tag + " Street"}}, w.headers()).json();
    auto issued = postJson("/api/v1/wirewrite/certificates/" + a["id"].get<std::string>() + "/issue", nlohmann::json::object(), w.headers());
    ASSERT_EQ(issued.status, 200) << issued.body;
    const auto number = issued.json()["certificate_number"].get<std::string>();

    auto bySite = getJson(kBase + "/certificates?q=" + tag, staffHeaders());
    ASSERT_EQ(bySite.status, 200) << bySite.body;
    EXPECT_EQ(bySite.json()["total"], 2);
    EXPECT_EQ(bySite.json()["items"][0]["id"], b["id"]); // newest first
    EXPECT_EQ(bySite.json()["items"][0]["worker"]["full_name"], "Cert Holder " + tag);
    EXPECT_EQ(bySite.json()["items"][0]["worker"]["email"], w.account.email);
    const auto counts = bySite.json()["counts"];
    EXPECT_EQ(counts["all"].get<int>(), counts["draft"].get<int>() + counts["issued"].get<int>());
    EXPECT_GE(counts["issued"].get<int>(), 1);

    EXPECT_EQ(getJson(kBase + "/certificates?q=" + number, staffHeaders()).json()["items"][0]["id"], a["id"]);
    EXPECT_EQ(getJson(kBase + "/certificates?q=" + w.account.email, staffHeaders()).json()["total"], 2);
    EXPECT_EQ(getJson(kBase + "/certificates?q=cert%20holder%20" + tag, staffHeaders()).json()["total"], 2);
    auto drafts = getJson(kBase + "/certificates?q=" + tag + "&status=draft", staffHeaders());
    ASSERT_EQ(drafts.json()["total"], 1);
    EXPECT_EQ(drafts.json()["items"][0]["id"], b["id"]);
    auto byStatus = getJson(kBase + "/certificates?q=" + tag + "&sort=status&dir=asc", staffHeaders());
    EXPECT_EQ(byStatus.json()["items"][0]["status"], "draft");
    auto byStatusDesc = getJson(kBase + "/certificates?q=" + tag + "&sort=status&dir=desc", staffHeaders());
    EXPECT_EQ(byStatusDesc.json()["items"][0]["status"], "issued");
    auto byCreated = getJson(kBase + "/certificates?q=" + tag + "&sort=created&dir=asc", staffHeaders());
    EXPECT_EQ(byCreated.json()["items"][0]["id"], a["id"]);
    EXPECT_EQ(getJson(kBase + "/certificates?q=" + tag + "&sort=number", staffHeaders()).status, 200);

    for (const std::string& bad : std::vector<std::string>{"status=void", "sort=site", "dir=sideways", "page=-1", "q=" + std::string(255, 'q')}) {
        auto res = getJson(kBase + "/certificates?" + bad, staffHeaders());
        EXPECT_EQ(res.status, 422) << bad;
    }
}
