// Sign-up with email confirmation (the harness default), the emailed link (GET /verify) and
// POST /verify, and sign-up on a server with confirmation turned off.
#include "api/auth_support.h"

#include <Poco/String.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

using namespace testing_support;

namespace {

HttpResult signUp(const std::string& email, const std::string& password, const std::string& ip, const std::string& query = "") {
    return postJson("/auth/v1/signup" + query, {{"email", email}, {"password", password}, {"data", {{"full_name", "Mere Tane"}}}}, as(ip));
}

std::set<std::string> keysOf(const nlohmann::json& j) {
    std::set<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.insert(it.key());
    return keys;
}

int noConfirmServer() { return serverWith({{"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"}}); }

} // namespace

TEST(AuthSignup, CreatesAnUnconfirmedUserMailsALinkAndGivesNoSession) {
    const auto ip = newClientIp();
    const auto email = newEmail("signup");
    const auto before = usersCount();
    auto r = signUp(email, "Kea-nest-2024", ip);
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_FALSE(j.contains("access_token"));
    EXPECT_FALSE(j.contains("refresh_token"));
    EXPECT_EQ(j["email"], email);
    EXPECT_EQ(j["aud"], "authenticated");
    EXPECT_TRUE(j["email_confirmed_at"].is_null());
    EXPECT_TRUE(j["confirmation_sent_at"].is_string());
    EXPECT_EQ(j["user_metadata"]["full_name"], "Mere Tane");
    EXPECT_EQ(j["identities"].size(), 1u);
    EXPECT_EQ(usersCount(), before + 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ? AND email = ? AND email_confirmed_at IS NULL", {j["id"], email}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM profiles WHERE email = ? AND full_name = 'Mere Tane'", {email}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE user_id = ?", {j["id"]}), 0);

    auto link = waitForLink(email, "signup");
    EXPECT_TRUE(link.starts_with(kPublicUrl + "/auth/v1/verify?token=")) << link;
    EXPECT_EQ(linkParam(link, "type"), "signup");
    EXPECT_EQ(linkParam(link, "redirect_to"), kPublicUrl + "/");
    EXPECT_EQ(tokenOf(link).size(), 32u);
    // Only the hash of the token is stored.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_one_time_tokens WHERE token_hash = ?", {tokenOf(link)}), 0);
}

// The same address signed up several times at once (a double submit): one user, and every answer
// is the ordinary one (the real user or the decoy) or, for a request that lost the race on
// PostgreSQL's unique email, 409 `conflict`; never a 500.
TEST(AuthSignup, TheSameAddressSignedUpSeveralTimesAtOnceMakesOneUser) {
    const auto email = newEmail("double-submit");
    constexpr int kRequests = 6;
    std::atomic<int> ok{0}, conflicts{0};
    std::atomic<bool> go{false};
    std::mutex failuresMutex;
    std::vector<std::string> failures;
    std::vector<std::thread> threads;
    for (int i = 0; i < kRequests; ++i) {
        threads.emplace_back([&, ip = newClientIp()] {
            while (!go) std::this_thread::yield();
            auto r = signUp(email, "Kea-nest-2024", ip);
            if (r.status == 200 && r.json()["email"] == email) {
                ++ok;
            } else if (r.status == 409 && r.json()["code"] == "conflict") {
                ++conflicts;
            } else {
                std::lock_guard lock(failuresMutex);
                failures.push_back(std::to_string(r.status) + " " + r.body);
            }
        });
    }
    go = true;
    for (auto& t : threads) t.join();
    EXPECT_TRUE(failures.empty()) << failures.front();
    EXPECT_GE(ok, 1);
    EXPECT_EQ(ok + conflicts, kRequests);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ?", {email}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM profiles WHERE email = ?", {email}), 1);
}

TEST(AuthSignup, SigningInBeforeConfirmingIsRefused) {
    const auto ip = newClientIp();
    const auto email = newEmail("early");
    ASSERT_EQ(signUp(email, "Kea-nest-2024", ip).status, 200);
    auto r = signInRequest(email, "Kea-nest-2024", ip);
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.json()["code"], "email_not_confirmed");
    // A wrong password is still just wrong: the confirmation state is not revealed to a guesser.
    auto wrong = signInRequest(email, "Kea-nest-2025", ip);
    EXPECT_EQ(wrong.status, 400);
    EXPECT_EQ(wrong.json()["code"], "invalid_credentials");
}

TEST(AuthSignup, TheLinkConfirmsAndSignsInOnceThenSaysExpired) {
    const auto ip = newClientIp();
    const auto email = newEmail("link");
    ASSERT_EQ(signUp(email, "Kea-nest-2024", ip, "?redirect_to=https%3A%2F%2Fshop.signalcraft.test%2Faccount").status, 200);
    auto link = waitForLink(email, "signup");

    auto first = followLink(link, ip);
    ASSERT_EQ(first.status, 303) << first.body;
    EXPECT_EQ(first.header("cache-control"), "no-store");
    EXPECT_EQ(first.header("referrer-policy"), "no-referrer");
    auto to = redirectOf(first);
    EXPECT_EQ(to.target, kPublicUrl + "/account");
    EXPECT_EQ(to.fragment["type"], "signup");
    EXPECT_EQ(to.fragment["token_type"], "bearer");
    EXPECT_EQ(to.fragment["expires_in"], "3600");
    ASSERT_FALSE(to.fragment["access_token"].empty());
    ASSERT_FALSE(to.fragment["refresh_token"].empty());
    // The session is real: the user is confirmed and the tokens work.
    auto me = get("/auth/v1/user", as(ip, to.fragment["access_token"]));
    ASSERT_EQ(me.status, 200) << me.body;
    EXPECT_EQ(me.json()["email"], email);
    EXPECT_TRUE(me.json()["email_confirmed_at"].is_string());
    EXPECT_EQ(refreshRequest(to.fragment["refresh_token"], ip).status, 200);
    EXPECT_EQ(signInRequest(email, "Kea-nest-2024", ip).status, 200);

    auto second = followLink(link, ip);
    ASSERT_EQ(second.status, 303);
    auto again = redirectOf(second);
    EXPECT_EQ(again.target, kPublicUrl + "/account");
    EXPECT_EQ(again.fragment["error"], "access_denied");
    EXPECT_EQ(again.fragment["error_code"], "otp_expired");
    EXPECT_FALSE(again.fragment["error_description"].empty());
    EXPECT_FALSE(again.fragment.contains("access_token"));
}

TEST(AuthSignup, LinksOnlyRedirectToThisSite) {
    const auto ip = newClientIp();
    const auto email = newEmail("redirect");
    ASSERT_EQ(signUp(email, "Kea-nest-2024", ip, "?redirect_to=https%3A%2F%2Fevil.example%2Fsteal").status, 200);
    auto link = waitForLink(email, "signup");
    EXPECT_EQ(link.find("evil.example"), std::string::npos) << link;
    EXPECT_EQ(linkParam(link, "redirect_to"), kPublicUrl + "/");
    // Nor can the link itself be edited to send the session elsewhere.
    auto edited = link.substr(0, link.find("&redirect_to=")) + "&redirect_to=https%3A%2F%2Fevil.example%2F";
    auto r = followLink(edited, ip);
    ASSERT_EQ(r.status, 303);
    EXPECT_EQ(redirectOf(r).target, kPublicUrl + "/");
    EXPECT_FALSE(redirectOf(r).fragment["access_token"].empty());
}

TEST(AuthSignup, PostVerifyWithTheTokenWorksOnce) {
    const auto ip = newClientIp();
    const auto email = newEmail("postverify");
    ASSERT_EQ(signUp(email, "Kea-nest-2024", ip).status, 200);
    const auto token = tokenOf(waitForLink(email, "signup"));
    auto r = postJson("/auth/v1/verify", {{"type", "signup"}, {"token", token}}, as(ip));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["user"]["email"], email);
    EXPECT_TRUE(r.json()["user"]["email_confirmed_at"].is_string());
    EXPECT_EQ(jwtClaims(r.json()["access_token"])["amr"][0]["method"], "otp");
    auto again = postJson("/auth/v1/verify", {{"type", "signup"}, {"token", token}}, as(ip));
    EXPECT_EQ(again.status, 403) << again.body;
    EXPECT_EQ(again.json()["code"], "otp_expired");
    // The wrong type does not spend or accept a token either.
    auto unknownType = postJson("/auth/v1/verify", {{"type", "magic"}, {"token", token}}, as(ip));
    EXPECT_EQ(unknownType.status, 400);
}

TEST(AuthSignup, AnExpiredLinkIsRefused) {
    const auto ip = newClientIp();
    const auto email = newEmail("expired");
    ASSERT_EQ(signUp(email, "Kea-nest-2024", ip).status, 200);
    const auto link = waitForLink(email, "signup");
    ClockShift nextDay(std::chrono::hours(24) + std::chrono::minutes(1)); // links last a day
    auto r = followLink(link, ip);
    ASSERT_EQ(r.status, 303);
    EXPECT_EQ(redirectOf(r).fragment["error_code"], "otp_expired");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ? AND email_confirmed_at IS NULL", {email}), 1);
}

TEST(AuthSignup, AnExistingEmailGetsTheSameAnswerAndNothingChanges) {
    const auto ip = newClientIp();
    auto fresh = signUp(newEmail("fresh"), "Kea-nest-2024", ip);
    ASSERT_EQ(fresh.status, 200);
    auto existing = createUser("taken");
    const auto before = usersCount();

    auto r = signUp(existing.email, "Kea-other-2024", ip);
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    EXPECT_EQ(keysOf(j), keysOf(fresh.json()));
    EXPECT_EQ(keysOf(j["identities"][0]), keysOf(fresh.json()["identities"][0])) << j.dump();
    EXPECT_EQ(j["identities"].size(), fresh.json()["identities"].size());
    EXPECT_NE(j["id"], existing.id);
    EXPECT_EQ(j["email"], existing.email);
    EXPECT_TRUE(j["email_confirmed_at"].is_null()); // although the real account is confirmed
    EXPECT_FALSE(j.contains("access_token"));
    EXPECT_EQ(usersCount(), before);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ?", {j["id"]}), 0);
    // The real account is untouched: its password still works, the new one does not.
    EXPECT_EQ(signInRequest(existing.email, existing.password, ip).status, 200);
    EXPECT_EQ(signInRequest(existing.email, "Kea-other-2024", ip).status, 400);
}

TEST(AuthSignup, SigningUpAgainBeforeConfirmingSendsANewLinkThatReplacesTheOld) {
    const auto ip = newClientIp();
    const auto email = newEmail("again");
    ASSERT_EQ(signUp(email, "Kea-nest-2024", ip).status, 200);
    const auto oldLink = waitForLink(email, "signup", 1);
    const auto before = usersCount();
    ASSERT_EQ(signUp(email, "Kea-nest-2024", ip).status, 200);
    const auto newLink = waitForLink(email, "signup", 2);
    EXPECT_NE(newLink, oldLink);
    EXPECT_EQ(usersCount(), before);
    EXPECT_EQ(redirectOf(followLink(oldLink, ip)).fragment["error_code"], "otp_expired");
    EXPECT_EQ(redirectOf(followLink(newLink, ip)).fragment["type"], "signup");
}

TEST(AuthSignup, RepeatedSignUpsCannotFloodTheInboxWithConfirmations) {
    const auto email = newEmail("flood");
    // Five mails per address per hour (STOREFRONT_AUTH_EMAIL_LIMIT): the first sign-up and four
    // repeats mail a link; later repeats get the same answer and send nothing.
    for (int i = 0; i < 8; ++i) ASSERT_EQ(signUp(email, "Kea-nest-2024", newClientIp()).status, 200);
    waitForLink(email, "signup", 5);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    EXPECT_EQ(linksTo(email, "signup").size(), 5u);
}

TEST(AuthSignup, WeakPasswordsAre422WithTheReasons) {
    const auto ip = newClientIp();
    const auto before = usersCount();
    struct Case {
        std::string password;
        std::vector<std::string> reasons;
    };
    for (const auto& c : std::vector<Case>{{"ab1", {"length"}},
                                           {"password123", {"pwned"}},
                                           {"PASSWORD123", {"pwned"}},
                                           {"12345", {"length", "pwned"}},
                                           {"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", {"length"}}}) {
        const auto email = newEmail("weak");
        auto r = signUp(email, c.password, ip);
        ASSERT_EQ(r.status, 422) << c.password << ": " << r.body;
        auto j = r.json();
        EXPECT_EQ(j["code"], "weak_password");
        EXPECT_EQ(j["weak_password"]["reasons"], nlohmann::json(c.reasons)) << c.password;
        EXPECT_FALSE(j["message"].get<std::string>().empty());
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ?", {email}), 0);
    }
    auto tooLong = signUp(newEmail("long"), std::string(257, 'k'), ip);
    EXPECT_EQ(tooLong.status, 422);
    EXPECT_EQ(usersCount(), before);
}

TEST(AuthSignup, BadInputIsRefusedAndChangesNothing) {
    const auto ip = newClientIp();
    const auto before = usersCount();
    auto invalid = signUp("not-an-email", "Kea-nest-2024", ip);
    EXPECT_EQ(invalid.status, 400) << invalid.body;
    EXPECT_EQ(invalid.json()["code"], "email_address_invalid");
    auto missing = postJson("/auth/v1/signup", {{"password", "Kea-nest-2024"}}, as(ip));
    EXPECT_EQ(missing.status, 400);
    EXPECT_EQ(missing.json()["code"], "validation_failed");
    auto noPassword = postJson("/auth/v1/signup", {{"email", newEmail("nopw")}}, as(ip));
    EXPECT_EQ(noPassword.status, 400);
    auto notText = postJson("/auth/v1/signup", {{"email", 42}, {"password", "Kea-nest-2024"}}, as(ip));
    EXPECT_EQ(notText.status, 400);
    auto badData = postJson("/auth/v1/signup", {{"email", newEmail("data")}, {"password", "Kea-nest-2024"}, {"data", "x"}}, as(ip));
    EXPECT_EQ(badData.status, 400);

    auto headers = as(ip);
    headers["Content-Type"] = "application/json";
    auto malformed = http(env().port, "POST", "/auth/v1/signup", "{\"email\": ", headers);
    EXPECT_EQ(malformed.status, 400);
    EXPECT_EQ(malformed.json()["code"], "malformed_json");
    auto array = http(env().port, "POST", "/auth/v1/signup", "[]", headers);
    EXPECT_EQ(array.status, 400);

    headers["Content-Type"] = "text/plain";
    const auto email = newEmail("plain");
    auto wrongType = http(env().port, "POST", "/auth/v1/signup",
                          nlohmann::json({{"email", email}, {"password", "Kea-nest-2024"}}).dump(), headers);
    EXPECT_EQ(wrongType.status, 415);
    EXPECT_EQ(wrongType.json()["code"], "unsupported_media_type");

    EXPECT_EQ(usersCount(), before);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ?", {email}), 0);
}

TEST(AuthSignup, TooManySignUpsFromOneAddressAre429) {
    const auto ip = newClientIp();
    for (int i = 0; i < 30; ++i) ASSERT_EQ(signUp("not-an-email", "Kea-nest-2024", ip).status, 400) << i;
    auto r = signUp(newEmail("flood"), "Kea-nest-2024", ip);
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_EQ(r.json()["code"], "over_request_rate_limit");
    EXPECT_FALSE(r.header("retry-after").empty());
    EXPECT_EQ(signUp(newEmail("other"), "Kea-nest-2024", newClientIp()).status, 200); // per address
}

TEST(AuthSignup, WithoutConfirmationSignUpReturnsASessionAndAnExistingEmailIs422) {
    const int port = noConfirmServer();
    const auto ip = newClientIp();
    const auto email = newEmail("instant");
    auto r = sendJson(port, "POST", "/auth/v1/signup", {{"email", email}, {"password", "Kea-nest-2024"}}, as(ip));
    ASSERT_EQ(r.status, 200) << r.body;
    auto j = r.json();
    ASSERT_TRUE(j["access_token"].is_string());
    EXPECT_TRUE(j["refresh_token"].is_string());
    EXPECT_EQ(j["user"]["email"], email);
    EXPECT_TRUE(j["user"]["email_confirmed_at"].is_string());
    // The servers share the database and the signing keys: the token works on the other one too.
    EXPECT_EQ(get("/auth/v1/user", as(ip, j["access_token"])).status, 200);
    EXPECT_EQ(linksTo(email, "signup").size(), 0u);

    const auto before = usersCount();
    auto again = sendJson(port, "POST", "/auth/v1/signup", {{"email", email}, {"password", "Kea-nest-2025"}}, as(ip));
    EXPECT_EQ(again.status, 422) << again.body;
    EXPECT_EQ(again.json()["code"], "user_already_exists");
    auto upperCase = sendJson(port, "POST", "/auth/v1/signup", {{"email", " " + Poco::toUpper(email)}, {"password", "Kea-nest-2025"}}, as(ip));
    EXPECT_EQ(upperCase.status, 422) << upperCase.body;
    EXPECT_EQ(usersCount(), before);
}
