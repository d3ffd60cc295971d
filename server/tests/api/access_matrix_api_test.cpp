// Issue 14, access matrix: every route the router knows x every kind of caller, compared with the
// checked-in table server/tests/api/access_matrix.tsv (allowed / 401 / 403 / 404 per cell).
// "allowed" is any answer but 401, 403 and 404 (a 422 on an empty body passed the access check).
// A new route fails the test until its row is added (ACCESS_MATRIX_WRITE=<file> writes the table
// as observed; review every line against the spec before checking it in).
#include "api/billing_support.h"
#include "api/enterprise_support.h"
#include "api/matrix_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

using namespace testing_support;
using storefront::http::Access;

namespace {

const std::string kAccessMatrixFile = std::string(STOREFRONT_SOURCE_DIR) + "/tests/api/access_matrix.tsv";

struct MatrixRow {
    std::string access;
    std::vector<std::string> cells;
};
using MatrixTable = std::map<std::pair<std::string, std::string>, MatrixRow>; // (pattern, method)

std::string outcomeOf(int status) {
    if (status == 401 || status == 403 || status == 404) return std::to_string(status);
    if (status >= 500) return "5xx";
    return "allowed";
}

// Calls that use up their fixture (a deleted row, a paid checkout, an issued certificate).
bool consumes(const storefront::http::RouteInfo& route) {
    if (route.method == "DELETE") return true;
    if (route.method != "POST") return false;
    const auto last = route.pattern.substr(route.pattern.rfind('/') + 1);
    return last == "pay" || last == "decline" || last == "cancel" || last == "issue" ||
           route.pattern.find("/cancel/") != std::string::npos;
}

// Order of the calls: calls that end a principal's session or factor go last.
int phaseOf(const storefront::http::RouteInfo& route) {
    if (route.pattern == "/auth/v1/logout") return 3;
    if (route.method == "DELETE" && route.pattern == "/auth/v1/factors/{id}") return 2;
    if (route.method == "DELETE") return 1;
    return 0;
}

HttpResult callAs(const Principal& who, const storefront::http::RouteInfo& route, const std::string& path) {
    Headers h = as(newClientIp(), who.token);
    h["Accept"] = "application/json";
    std::string target = path;
    // local: only this session ends (the default, global, would end the user's other sessions).
    if (route.pattern == "/auth/v1/logout") target += "?scope=local";
    if (route.method == "GET") return http(env().port, "GET", target, "", h);
    if (route.pattern.starts_with("/pay/test/")) {
        // The local provider's pages post HTML forms.
        h["Content-Type"] = "application/x-www-form-urlencoded";
        return http(env().port, route.method, target, "", h);
    }
    h["Content-Type"] = "application/json";
    // Enrolment checks its body before the caller's aal: a valid body shows who may add a factor.
    if (route.pattern == "/auth/v1/factors" && route.method == "POST") return http(env().port, "POST", target, R"({"factor_type":"totp"})", h);
    return http(env().port, route.method, target, "{}", h);
}

MatrixTable readMatrix(const std::string& file, std::vector<std::string>& columns) {
    MatrixTable table;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line.front() == '#') continue;
        std::vector<std::string> fields;
        std::stringstream fieldStream(line);
        std::string field;
        while (std::getline(fieldStream, field, '\t')) fields.push_back(field);
        if (fields.size() < 3) continue;
        if (fields[0] == "method") {
            columns.assign(fields.begin() + 3, fields.end());
            continue;
        }
        table[{fields[1], fields[0]}] = {fields[2], std::vector<std::string>(fields.begin() + 3, fields.end())};
    }
    return table;
}

void writeMatrix(const std::string& file, const std::vector<Principal>& principals, const MatrixTable& table) {
    std::ofstream out(file);
    out << "# Access matrix (issue 14): expected outcome of every route for every kind of caller.\n"
           "# allowed = passed the access checks (any answer but 401/403/404); 401/403/404 = refused.\n"
           "# Checked by AccessMatrix.EveryRouteAnswersEveryPrincipalAsTheTableSays; fixtures and principals:\n"
           "# server/tests/api/matrix_support.cpp. Regenerate with ACCESS_MATRIX_WRITE=<file>, then review.\n";
    out << "method\tpattern\taccess";
    for (const auto& p : principals) out << "\t" << p.name;
    out << "\n";
    for (const auto& [key, row] : table) {
        out << key.second << "\t" << key.first << "\t" << row.access;
        for (const auto& c : row.cells) out << "\t" << c;
        out << "\n";
    }
}

// Rules that hold whatever the table says, so a regenerated table cannot record a hole.
std::string ruleBroken(Access access, const std::string& principal, const std::string& outcome) {
    const bool badToken = principal == "forged_token" || principal == "expired_token" || principal == "signed_out_token";
    if (access == Access::Anyone) return "";
    if (principal == "visitor" && outcome != "401") return "a visitor must get 401";
    if (badToken && outcome != "403") return "a bad token must get 403";
    if (access == Access::StaffAdmin && principal != "staff_aal2" && outcome == "allowed") return "only staff at aal2";
    if ((access == Access::SignedIn || access == Access::EnterpriseAdmin) &&
        (principal == "customer_mfa_aal1" || principal == "staff_aal1") && outcome == "allowed")
        return "a user with a factor must step up first";
    if (access == Access::EnterpriseAdmin && principal != "enterprise_admin" && principal != "enterprise_admin_other" &&
        outcome == "allowed")
        return "only an enterprise admin";
    return "";
}

} // namespace

TEST(AccessMatrix, EveryRouteAnswersEveryPrincipalAsTheTableSays) {
    const auto started = std::chrono::steady_clock::now();
    auto cast = newCast();
    auto& everyone = *cast;
    Fixtures fixtures(everyone);
    auto routes = serverRoutes();
    ASSERT_GT(routes.size(), 50u);
    std::stable_sort(routes.begin(), routes.end(), [](const auto& a, const auto& b) { return phaseOf(a) < phaseOf(b); });

    MatrixTable observed;
    std::size_t requests = 0;
    for (const auto& route : routes) {
        std::string missing;
        auto row = MatrixRow{accessName(route.access), {}};
        for (const auto& who : everyone.principals) {
            auto path = fixtures.fill(route.pattern, &missing);
            if (path.empty()) break;
            auto r = callAs(who, route, path);
            ++requests;
            row.cells.push_back(outcomeOf(r.status));
            EXPECT_LT(r.status, 500) << route.method << " " << path << " as " << who.name << ": " << r.body;
            const auto broken = ruleBroken(route.access, who.name, row.cells.back());
            EXPECT_EQ(broken, "") << route.method << " " << route.pattern << " as " << who.name << " answered " << r.status
                                  << " " << r.body;
            if (consumes(route) && r.status < 400) fixtures.refresh(route.pattern);
        }
        ASSERT_EQ(missing, "") << route.method << " " << route.pattern
                               << ": no fixture for this path parameter; add one in matrix_support.cpp";
        observed[{route.pattern, route.method}] = row;
    }

    if (const char* file = std::getenv("ACCESS_MATRIX_WRITE"); file && *file) {
        writeMatrix(file, everyone.principals, observed);
        std::cout << "access matrix written to " << file << "\n";
    }

    std::vector<std::string> columns;
    const auto expected = readMatrix(kAccessMatrixFile, columns);
    std::vector<std::string> names;
    for (const auto& p : everyone.principals) names.push_back(p.name);
    EXPECT_EQ(columns, names) << "the table's columns are not the principals";

    std::size_t unexpected = 0;
    for (const auto& [key, row] : observed) {
        auto it = expected.find(key);
        if (it == expected.end()) {
            ADD_FAILURE() << key.second << " " << key.first << " is not in " << kAccessMatrixFile;
            unexpected += row.cells.size();
            continue;
        }
        if (it->second.access != row.access) {
            ADD_FAILURE() << key.second << " " << key.first << " declares " << row.access << ", the table says "
                          << it->second.access;
        }
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            const auto want = i < it->second.cells.size() ? it->second.cells[i] : "(missing)";
            if (want != row.cells[i]) {
                ++unexpected;
                ADD_FAILURE() << key.second << " " << key.first << " as " << names[i] << ": " << row.cells[i]
                              << ", the table says " << want;
            }
        }
    }
    for (const auto& [key, row] : expected)
        if (!observed.contains(key)) ADD_FAILURE() << key.second << " " << key.first << " is in the table but no longer a route";
    EXPECT_EQ(unexpected, 0u);
    const auto seconds =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count() / 1000.0;
    std::cout << "access matrix: " << observed.size() << " routes x " << names.size() << " principals = " << requests
              << " requests, " << unexpected << " unexpected (" << seconds << " s)\n";
}

// ---- Object-level checks ----
// Every endpoint that takes an id owned by a user (checkouts, certificates, factors and their
// challenges, subscriptions in the billing portal, enterprise members) answers another signed-in
// user 404 with the owner's id, and not one row in the database changes. The access matrix shows
// the same 404s per principal; these calls use a valid body (so validation cannot answer first)
// and compare every table.

namespace {

// Tables a refused request may still change: throttles, job leases; the mail queue's rows change
// state as other tests' mail goes out (new mail is checked apart, by id).
const std::vector<std::string> kObjectLevelSnapshotExcept = {"rate_limit_counters", "job_leases", "mail_outbox"};

std::string objectLevelPaidSubscription(const Session& buyer) {
    std::string planId;
    auto product = createSubscriptionProduct(planId);
    auto started = startCheckout(buyer, {{"productSlug", product.slug}, {"priceId", planId}});
    if (started.status != 200) throw std::runtime_error("checkout: " + started.body);
    if (pressButton(started.json()["url"], "pay").status != 303) throw std::runtime_error("pay");
    auto ids = textColumn("SELECT provider_subscription_id FROM subscriptions WHERE user_id = ? ORDER BY created_at DESC", {buyer.userId});
    if (ids.empty()) throw std::runtime_error("no subscription");
    return ids.front();
}

std::string portalToken(const Session& owner) {
    auto r = http(env().port, "POST", "/functions/v1/create-portal-session", "", owner.headers());
    if (r.status != 200) throw std::runtime_error("portal: " + r.body);
    const std::string url = r.json()["url"];
    return url.substr(url.rfind('/') + 1);
}

} // namespace

TEST(ObjectLevel, AnotherUsersIdsAnswer404AndChangeNothing) {
    // Alice owns one of everything; Bob is signed in, has his own of each, and uses Alice's ids.
    auto alice = newBuyer("alice-objects");
    auto bob = newBuyer("bob-objects");
    auto hardware = createHardware(50);
    auto aliceCheckout = startCheckout(alice, {{"productSlug", hardware.slug}}).json();
    const std::string aliceCheckoutId = aliceCheckout["checkoutId"], aliceSession = aliceCheckout["sessionId"];
    const auto aliceSubscription = objectLevelPaidSubscription(alice);
    const auto bobSubscription = objectLevelPaidSubscription(bob);
    const auto bobPortal = portalToken(bob);
    ASSERT_EQ(getJson("/api/v1/wirewrite/me", alice.headers()).status, 200);
    ASSERT_EQ(getJson("/api/v1/wirewrite/me", bob.headers()).status, 200);
    auto cert = postJson("/api/v1/wirewrite/certificates", {{"site_location", "Alice's site"}}, alice.headers());
    ASSERT_EQ(cert.status, 201) << cert.body;
    const std::string aliceCertificate = cert.json()["id"];
    auto aliceFactor = enrolFactor(alice);
    const auto aliceChallenge = challenge(alice, aliceFactor.id);
    auto bobFactor = enrolFactor(bob);
    auto aliceTeam = createTeam("alice-objects-team");
    const auto aliceMember = addNewMember(aliceTeam);
    auto bobTeam = createTeam("bob-objects-team");

    struct Probe {
        std::string name;
        HttpResult answer;
    };
    settleServers();
    const auto mailBefore = textColumn("SELECT id FROM mail_outbox ORDER BY id");
    const auto before = snapshotDatabase(kObjectLevelSnapshotExcept);
    const std::vector<Probe> probes = {
        {"checkout", getJson("/api/v1/account/checkouts/" + aliceCheckoutId, bob.headers())},
        {"cancel checkout", postJson("/api/v1/account/checkouts/" + aliceCheckoutId + "/cancel", nlohmann::json::object(), bob.headers())},
        {"certificate", getJson("/api/v1/wirewrite/certificates/" + aliceCertificate, bob.headers())},
        {"change certificate", patchJson("/api/v1/wirewrite/certificates/" + aliceCertificate, {{"site_location", "Bob's now"}}, bob.headers())},
        {"issue certificate", postJson("/api/v1/wirewrite/certificates/" + aliceCertificate + "/issue", nlohmann::json::object(), bob.headers())},
        {"challenge factor", challengeRequest(bob, aliceFactor.id)},
        {"verify factor", verifyRequest(bob, aliceFactor.id, aliceChallenge, "123456")},
        {"verify challenge", verifyRequest(bob, bobFactor.id, aliceChallenge, "123456")},
        {"unenrol factor", del("/auth/v1/factors/" + aliceFactor.id, bob.headers())},
        {"cancel subscription", http(env().port, "POST", "/pay/test/portal/" + bobPortal + "/cancel/" + aliceSubscription, "",
                                     {{"Content-Type", "application/x-www-form-urlencoded"}})},
        {"remove member", del("/api/v1/enterprise/members/" + aliceMember, bobTeam.session.headers())},
        {"remove member as a customer", del("/api/v1/enterprise/members/" + aliceMember, bob.headers())},
    };
    const auto after = snapshotDatabase(kObjectLevelSnapshotExcept);
    for (const auto& p : probes) {
        EXPECT_EQ(p.answer.status, 404) << p.name << ": " << p.answer.body;
        auto json = nlohmann::json::parse(p.answer.body, nullptr, false);
        EXPECT_TRUE(json.is_object() && json.contains("code")) << p.name << ": " << p.answer.body;
    }
    EXPECT_EQ(snapshotDiff(before, after), "");
    EXPECT_EQ(textColumn("SELECT id FROM mail_outbox ORDER BY id"), mailBefore);
    std::cout << "object-level: " << probes.size() << " calls with another user's id, all 404, 0 rows changed\n";

    // Control: the same calls by the owners do work (so the 404s above are about ownership).
    EXPECT_EQ(getJson("/api/v1/account/checkouts/" + aliceCheckoutId, alice.headers()).status, 200);
    EXPECT_EQ(getJson("/api/v1/wirewrite/certificates/" + aliceCertificate, alice.headers()).status, 200);
    EXPECT_EQ(challengeRequest(alice, aliceFactor.id).status, 200);
    EXPECT_EQ(http(env().port, "POST", "/pay/test/portal/" + bobPortal + "/cancel/" + bobSubscription, "",
                   {{"Content-Type", "application/x-www-form-urlencoded"}})
                  .status,
              303);
    EXPECT_EQ(del("/api/v1/enterprise/members/" + aliceMember, aliceTeam.session.headers()).status, 200);
}

TEST(ObjectLevel, APasswordAloneCannotAddASecondFactor) {
    // With only the password (aal1), an attacker could otherwise enrol their own authenticator and
    // step up with it: GoTrue demands aal2 to enrol once a verified factor exists.
    const auto ip = newClientIp();
    auto account = createUser("second-factor");
    auto owner = signIn(account, ip);
    enrolVerifiedFactor(owner);
    auto thief = signIn(account, newClientIp());
    const auto factorsBefore = countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {account.id});
    auto r = enrolRequest(thief);
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(r.json()["code"], "insufficient_aal");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE user_id = ?", {account.id}), factorsBefore);
    // At aal2 the owner may add another.
    EXPECT_EQ(enrolRequest(owner, {{"factor_type", "totp"}, {"friendly_name", "Backup phone"}}).status, 200);
}
