// The WireWrite companion app's API (/api/v1/wirewrite/...): the signed-in user's worker profile,
// their certificates (drafts, the free-tier limit, issuing), promo code redemption (each refusal
// its own code, the max_uses race on both databases), activity recorded at most once a minute,
// and another worker's rows are 404.
#include "api/companion_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <regex>
#include <thread>

using namespace testing_support;

namespace {

const std::string kMe = "/api/v1/wirewrite/me";
const std::string kCerts = "/api/v1/wirewrite/certificates";
const std::string kRedeem = "/api/v1/wirewrite/redeem";

std::int64_t usesOf(const std::string& code) {
    auto v = textColumn("SELECT CAST(uses_count AS TEXT) FROM promo_codes WHERE code = ?", {code});
    return v.empty() ? -1 : std::stoll(v[0]);
}

std::string cert(const WorkerSession& w, const std::string& site = "") {
    auto body = site.empty() ? nlohmann::json::object() : nlohmann::json{{"site_location", site}};
    auto res = postJson(kCerts, body, w.headers());
    if (res.status != 201) throw std::runtime_error("create certificate: " + res.body);
    return res.json()["id"].get<std::string>();
}

double monthsFromNow(const std::string& timestamp) {
    const auto seconds = storefront::db::epochFromTimestamp(timestamp) - storefront::db::epochFromTimestamp(testClock().nowTimestamp());
    return static_cast<double>(seconds) / (30.44 * 86400);
}

} // namespace

TEST(CompanionAppApi, TheWorkerProfileIsCreatedOnTheFirstCall) {
    EXPECT_EQ(getJson(kMe, as(newClientIp())).status, 401);
    auto account = createUser("first-call");
    execSql("UPDATE users SET raw_user_meta_data = ? WHERE id = ?", {R"({"full_name":"Kiri Te Kanawa"})", account.id});
    auto session = signIn(account, newClientIp());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE user_id = ?", {account.id}), 0);
    auto me = getJson(kMe, session.headers());
    ASSERT_EQ(me.status, 200) << me.body;
    auto w = me.json();
    EXPECT_EQ(w["email"], account.email);
    EXPECT_EQ(w["full_name"], "Kiri Te Kanawa");
    EXPECT_TRUE(w["ewrb_licence_number"].is_null());
    EXPECT_EQ(w["entitlement"], "free");
    EXPECT_TRUE(w["pro_expires_at"].is_null());
    EXPECT_EQ(w["pro_active"], false);
    EXPECT_EQ(w["certificate_limit"], 10);
    EXPECT_EQ(w["certificates_count"], 0);
    auto again = getJson(kMe, session.headers());
    EXPECT_EQ(again.json()["id"], w["id"]);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE user_id = ?", {account.id}), 1);
}

TEST(CompanionAppApi, TheProfileIsUpdatedAndBadInputChangesNothing) {
    auto w = newWorker("profile");
    auto res = putJson(kMe, {{"full_name", "  Hemi Walker "}, {"ewrb_licence_number", "EW123456"}}, w.headers());
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(res.json()["full_name"], "Hemi Walker");
    EXPECT_EQ(res.json()["ewrb_licence_number"], "EW123456");
    for (const auto& body : {nlohmann::json{{"full_name", std::string(201, 'n')}}, nlohmann::json{{"full_name", 7}},
                             nlohmann::json{{"ewrb_licence_number", std::string(51, '1')}},
                             nlohmann::json{{"ewrb_licence_number", nlohmann::json::array()}}}) {
        auto bad = putJson(kMe, body, w.headers());
        EXPECT_EQ(bad.status, 422) << body.dump();
        EXPECT_EQ(bad.json()["fields"].size(), 1u) << body.dump();
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ? AND full_name = 'Hemi Walker' "
                        "AND ewrb_licence_number = 'EW123456'",
                        {w.workerId}),
              1);
    // A member left out keeps its value; empty text or null clears it.
    auto kept = putJson(kMe, {{"ewrb_licence_number", "EW654321"}}, w.headers());
    EXPECT_EQ(kept.json()["full_name"], "Hemi Walker");
    EXPECT_EQ(kept.json()["ewrb_licence_number"], "EW654321");
    auto cleared = putJson(kMe, {{"ewrb_licence_number", ""}}, w.headers());
    EXPECT_TRUE(cleared.json()["ewrb_licence_number"].is_null());
    EXPECT_EQ(cleared.json()["full_name"], "Hemi Walker");
    EXPECT_TRUE(putJson(kMe, {{"full_name", nullptr}}, w.headers()).json()["full_name"].is_null());
}

TEST(CompanionAppApi, ActivityIsRecordedAtMostOnceAMinute) {
    auto w = newWorker("activity");
    const auto recent = testClock().timestampAfter(-30);
    execSql("UPDATE worker_profiles SET last_active_at = ? WHERE id = ?", {recent, w.workerId});
    ASSERT_EQ(getJson(kMe, w.headers()).status, 200);
    ASSERT_EQ(getJson(kCerts, w.headers()).status, 200);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ? AND last_active_at = ?", {w.workerId, recent}), 1);

    const auto stale = testClock().timestampAfter(-61);
    execSql("UPDATE worker_profiles SET last_active_at = ?, inactivity_warned_at = ? WHERE id = ?", {stale, stale, w.workerId});
    auto me = getJson(kMe, w.headers()).json();
    EXPECT_NE(me["last_active_at"], stale);
    EXPECT_TRUE(me["inactivity_warned_at"].is_null());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ? AND last_active_at > ? AND inactivity_warned_at IS NULL",
                        {w.workerId, testClock().timestampAfter(-10)}),
              1);
}

TEST(CompanionAppApi, ADraftIsCreatedUpdatedAndIssuedOnceWithAUniqueNumber) {
    auto w = newWorker("issuer");
    auto created = postJson(kCerts, {{"site_location", "12 Queen Street"}}, w.headers());
    ASSERT_EQ(created.status, 201) << created.body;
    auto c = created.json();
    EXPECT_EQ(c["status"], "draft");
    EXPECT_TRUE(c["certificate_number"].is_null());
    EXPECT_TRUE(c["issued_at"].is_null());
    const auto id = c["id"].get<std::string>();

    auto updated = patchJson(kCerts + "/" + id, {{"site_location", "14 Queen Street"}}, w.headers());
    ASSERT_EQ(updated.status, 200) << updated.body;
    EXPECT_EQ(updated.json()["site_location"], "14 Queen Street");

    auto issued = postJson(kCerts + "/" + id + "/issue", nlohmann::json::object(), w.headers());
    ASSERT_EQ(issued.status, 200) << issued.body;
    const auto number = issued.json()["certificate_number"].get<std::string>();
    EXPECT_TRUE(std::regex_match(number, std::regex(R"(WW-20\d\d-\d{6})"))) << number;
    EXPECT_EQ(issued.json()["status"], "issued");
    EXPECT_FALSE(issued.json()["issued_at"].is_null());

    auto again = postJson(kCerts + "/" + id + "/issue", nlohmann::json::object(), w.headers());
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.json()["code"], "certificate_issued");
    auto change = patchJson(kCerts + "/" + id, {{"site_location", "Elsewhere"}}, w.headers());
    EXPECT_EQ(change.status, 409);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM certificates WHERE id = ? AND site_location = '14 Queen Street' AND certificate_number = ?",
                        {id, number}),
              1);

    auto second = cert(w, "Second site");
    auto secondNumber = postJson(kCerts + "/" + second + "/issue", nlohmann::json::object(), w.headers()).json()["certificate_number"];
    EXPECT_NE(secondNumber, number);

    auto mine = getJson(kCerts + "?page_size=1", w.headers());
    ASSERT_EQ(mine.status, 200);
    EXPECT_EQ(mine.json()["total"], 2);
    EXPECT_EQ(mine.json()["items"][0]["id"], second); // newest first
    EXPECT_EQ(getJson(kCerts + "?q=queen", w.headers()).json()["total"], 1);
    EXPECT_EQ(getJson(kCerts + "?q=" + number, w.headers()).json()["total"], 1);
    EXPECT_EQ(getJson(kCerts + "?status=draft", w.headers()).json()["total"], 0);
    EXPECT_EQ(getJson(kCerts + "?status=nope", w.headers()).status, 422);
    EXPECT_EQ(getJson(kCerts + "/" + id, w.headers()).json()["certificate_number"], number);
}

TEST(CompanionAppApi, AnotherWorkersCertificateIsNotFoundAndBadInputChangesNothing) {
    auto owner = newWorker("owner");
    auto other = newWorker("other");
    const auto id = cert(owner, "Owner site");
    for (const auto& res : {getJson(kCerts + "/" + id, other.headers()),
                            patchJson(kCerts + "/" + id, {{"site_location", "taken"}}, other.headers()),
                            postJson(kCerts + "/" + id + "/issue", nlohmann::json::object(), other.headers()),
                            getJson(kCerts + "/not-a-uuid", owner.headers()),
                            patchJson(kCerts + "/1234", {{"site_location", "x"}}, owner.headers()),
                            postJson(kCerts + "/" + storefront::db::newId() + "/issue", nlohmann::json::object(), owner.headers())}) {
        EXPECT_EQ(res.status, 404) << res.body;
        EXPECT_EQ(res.json()["code"], "certificate_not_found");
    }
    EXPECT_EQ(getJson(kCerts, other.headers()).json()["total"], 0);
    for (const auto& body : {nlohmann::json{{"site_location", std::string(501, 's')}}, nlohmann::json{{"site_location", 12}}}) {
        EXPECT_EQ(patchJson(kCerts + "/" + id, body, owner.headers()).status, 422) << body.dump();
        EXPECT_EQ(postJson(kCerts, body, owner.headers()).status, 422) << body.dump();
    }
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM certificates WHERE worker_id = ?", {owner.workerId}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM certificates WHERE id = ? AND site_location = 'Owner site' AND status = 'draft'", {id}), 1);
}

TEST(CompanionAppApi, TheFreeTierHoldsTenCertificatesAndProIsUnlimited) {
    auto w = newWorker("limit");
    for (int i = 0; i < 10; ++i) cert(w);
    auto refused = postJson(kCerts, nlohmann::json::object(), w.headers());
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.json()["code"], "free_tier_limit");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM certificates WHERE worker_id = ?", {w.workerId}), 10);
    ASSERT_EQ(patchJson("/api/v1/admin/wirewrite/workers/" + w.workerId, {{"entitlement", "pro"}}, staffHeaders()).status, 200);
    EXPECT_EQ(postJson(kCerts, nlohmann::json::object(), w.headers()).status, 201);
    auto me = getJson(kMe, w.headers()).json();
    EXPECT_EQ(me["pro_active"], true);
    EXPECT_TRUE(me["certificate_limit"].is_null());
    EXPECT_EQ(me["certificates_count"], 11);
}

TEST(CompanionAppApi, ARedemptionGrantsProForTheCodesMonthsAndNeverShortensALongerPeriod) {
    auto w = newWorker("redeem");
    auto three = createPromo({{"code", newCode("THREE")}, {"description", "3"}, {"duration_months", 3}});
    // Codes are case-insensitive.
    auto res = postJson(kRedeem, {{"code", "  " + storefront::db::newId().substr(0, 0) + three["code"].get<std::string>() + " "}}, w.headers());
    ASSERT_EQ(res.status, 200) << res.body;
    EXPECT_EQ(res.json()["entitlement"], "pro");
    EXPECT_EQ(res.json()["pro_active"], true);
    EXPECT_NEAR(monthsFromNow(res.json()["pro_expires_at"].get<std::string>()), 3.0, 0.1);
    const auto threeMonths = res.json()["pro_expires_at"];

    auto one = createPromo({{"code", newCode("ONE")}, {"description", "1"}, {"duration_months", 1}});
    std::string lower = one["code"].get<std::string>();
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    auto shorter = postJson(kRedeem, {{"code", lower}}, w.headers());
    ASSERT_EQ(shorter.status, 200) << shorter.body;
    EXPECT_EQ(shorter.json()["pro_expires_at"], threeMonths);
    EXPECT_EQ(usesOf(one["code"]), 1);

    auto twelve = createPromo({{"code", newCode("TWELVE")}, {"description", "12"}, {"duration_months", 12}});
    auto longer = postJson(kRedeem, {{"code", twelve["code"]}}, w.headers());
    EXPECT_NEAR(monthsFromNow(longer.json()["pro_expires_at"].get<std::string>()), 12.0, 0.1);

    auto life = createPromo({{"code", newCode("LIFE")}, {"description", "lifetime"}});
    auto lifetime = postJson(kRedeem, {{"code", life["code"]}}, w.headers());
    EXPECT_TRUE(lifetime.json()["pro_expires_at"].is_null());
    auto after = createPromo({{"code", newCode("AFTER")}, {"description", "6"}, {"duration_months", 6}});
    EXPECT_TRUE(postJson(kRedeem, {{"code", after["code"]}}, w.headers()).json()["pro_expires_at"].is_null());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM promo_code_redemptions WHERE worker_id = ?", {w.workerId}), 5);
}

TEST(CompanionAppApi, EachRefusedRedemptionHasItsOwnCodeAndChangesNothing) {
    auto w = newWorker("refused");
    auto other = newWorker("refused-other");
    auto expect = [&](const nlohmann::json& body, int status, const std::string& code) {
        auto res = postJson(kRedeem, body, w.headers());
        EXPECT_EQ(res.status, status) << body.dump() << " " << res.body;
        EXPECT_EQ(res.json()["code"], code) << body.dump();
    };
    expect({{"code", newCode("NOSUCH")}}, 404, "promo_code_not_found");
    expect({{"code", ""}}, 422, "validation_failed");
    expect({{"code", "   "}}, 422, "validation_failed");
    expect(nlohmann::json::object(), 422, "validation_failed");
    expect({{"code", 12345}}, 422, "validation_failed");
    expect({{"code", std::string(41, 'X')}}, 422, "validation_failed");

    auto inactive = createPromo({{"code", newCode("OFF")}, {"description", "off"}});
    ASSERT_EQ(patchJson("/api/v1/admin/wirewrite/promo-codes/" + inactive["id"].get<std::string>(), {{"active", false}}, staffHeaders()).status, 200);
    expect({{"code", inactive["code"]}}, 409, "promo_code_inactive");

    auto expired = createPromo({{"code", newCode("OLD")}, {"description", "old"}, {"expires_days", 1}});
    execSql("UPDATE promo_codes SET expires_at = ? WHERE id = ?", {testClock().timestampAfter(-60), expired["id"].get<std::string>()});
    expect({{"code", expired["code"]}}, 409, "promo_code_expired");

    auto single = createPromo({{"code", newCode("ONCE")}, {"description", "once"}, {"max_uses", 1}});
    ASSERT_EQ(postJson(kRedeem, {{"code", single["code"]}}, other.headers()).status, 200);
    expect({{"code", single["code"]}}, 409, "promo_code_used_up");
    // The one who used it hears that they already did.
    auto twice = postJson(kRedeem, {{"code", single["code"]}}, other.headers());
    EXPECT_EQ(twice.json()["code"], "promo_code_already_redeemed");

    EXPECT_EQ(usesOf(inactive["code"]), 0);
    EXPECT_EQ(usesOf(expired["code"]), 0);
    EXPECT_EQ(usesOf(single["code"]), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ? AND entitlement = 'free'", {w.workerId}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM promo_code_redemptions WHERE worker_id = ?", {w.workerId}), 0);
}

TEST(CompanionAppApi, FiftyParallelRedemptionsOfACodeWithFiveUsesMakeExactlyFivePro) {
    auto code = createPromo({{"code", newCode("RACE")}, {"description", "race"}, {"duration_months", 1}, {"max_uses", 5}});
    std::vector<WorkerSession> workers;
    for (int i = 0; i < 50; ++i) workers.push_back(newWorker("racer"));
    std::atomic<int> ok{0}, usedUp{0}, other{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (const auto& w : workers) {
        threads.emplace_back([&, headers = w.headers()] {
            while (!go) std::this_thread::yield();
            auto res = postJson(kRedeem, {{"code", code["code"]}}, headers);
            if (res.status == 200) ++ok;
            else if (res.status == 409 && res.json()["code"] == "promo_code_used_up") ++usedUp;
            else ++other;
        });
    }
    go = true;
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok, 5);
    EXPECT_EQ(usedUp, 45);
    EXPECT_EQ(other, 0);
    EXPECT_EQ(usesOf(code["code"]), 5);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM promo_code_redemptions WHERE promo_code_id = ?", {code["id"].get<std::string>()}), 5);
    std::int64_t pro = 0;
    for (const auto& w : workers)
        pro += countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ? AND entitlement = 'pro'", {w.workerId});
    EXPECT_EQ(pro, 5);
}

TEST(CompanionAppApi, OneWorkerRedeemingACodeTenTimesAtOnceRedeemsItOnce) {
    auto code = createPromo({{"code", newCode("SAME")}, {"description", "same"}});
    auto w = newWorker("eager");
    std::atomic<int> ok{0}, already{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < 10; ++i) {
        threads.emplace_back([&, headers = w.headers()] {
            while (!go) std::this_thread::yield();
            auto res = postJson(kRedeem, {{"code", code["code"]}}, headers);
            if (res.status == 200) ++ok;
            else if (res.status == 409 && res.json()["code"] == "promo_code_already_redeemed") ++already;
            else ADD_FAILURE() << res.status << " " << res.body;
        });
    }
    go = true;
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok, 1);
    EXPECT_EQ(already, 9);
    EXPECT_EQ(usesOf(code["code"]), 1);
}
