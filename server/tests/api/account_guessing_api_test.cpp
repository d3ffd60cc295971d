// Account security II (issue 48; docs/auth.md, "Two-factor guessing" and "Links end with the old
// access"): wrong second-factor codes count per account, across challenges, sessions and servers;
// a password change, signing out everywhere and a staff reset of two-factor void every emailed link
// still waiting. Runs on SQLite and on PostgreSQL (two servers on one database).
#include "api/auth_support.h"
#include "api/enterprise_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <regex>
#include <thread>

using namespace testing_support;

// Its own namespace: the unity build puts this file beside others with helpers of the same names.
namespace account_guessing_test {

namespace {

constexpr int kLimit = 10;            // STOREFRONT_AUTH_MFA_ACCOUNT_LIMIT's default
constexpr int kWindowSeconds = 900;   // STOREFRONT_AUTH_MFA_ACCOUNT_WINDOW_SECONDS's default

std::int64_t mails(const std::string& kind, const std::string& to) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND to_address = ?", {kind, to});
}

std::int64_t audited(const std::string& action, const std::string& userId) {
    return countRows("SELECT COUNT(*) FROM audit_log WHERE action = ? AND target_id = ?", {action, userId});
}

std::int64_t wrongCodesOf(const std::string& userId) {
    return countRows("SELECT COUNT(*) FROM mfa_wrong_codes WHERE user_id = ?", {userId});
}

// A user with a verified factor and ten recovery codes; `session` is at aal2.
struct TwoFactorUser {
    Account account;
    Session session;
    Factor factor;
    std::vector<std::string> recoveryCodes;
};

TwoFactorUser twoFactorUser(const std::string& prefix) {
    TwoFactorUser u;
    u.account = createUser(prefix);
    u.session = signIn(u.account, newClientIp());
    u.factor = enrolVerifiedFactor(u.session);
    auto codes = postJson("/api/v1/account/recovery-codes", nlohmann::json::object(), u.session.headers());
    if (codes.status != 200) throw std::runtime_error("recovery codes: " + codes.body);
    u.recoveryCodes = codes.json()["codes"].get<std::vector<std::string>>();
    return u;
}

// A signed-in session on the server at `port` (env()'s or a peer's), at aal1.
Session signInAt(int port, const Account& account) {
    Session s;
    s.ip = newClientIp();
    auto r = sendJson(port, "POST", "/auth/v1/token?grant_type=password", {{"email", account.email}, {"password", account.password}},
                      as(s.ip));
    if (r.status != 200) throw std::runtime_error("sign-in: " + r.body);
    s.take(r.json());
    return s;
}

HttpResult challengeAt(int port, const Session& s, const std::string& factorId) {
    return sendJson(port, "POST", "/auth/v1/factors/" + factorId + "/challenge", nlohmann::json::object(), s.headers());
}

HttpResult verifyAt(int port, const Session& s, const std::string& factorId, const std::string& challengeId, const std::string& code) {
    return sendJson(port, "POST", "/auth/v1/factors/" + factorId + "/verify", {{"challenge_id", challengeId}, {"code", code}},
                    s.headers());
}

std::string challengeIdAt(int port, const Session& s, const std::string& factorId) {
    auto r = challengeAt(port, s, factorId);
    if (r.status != 200) throw std::runtime_error("challenge: " + r.body);
    return r.json()["id"];
}

// `count` wrong TOTP codes at challenges of the server at `port`, a new challenge every five (a
// challenge's own limit); each must be answered 422 mfa_verification_failed.
void guessWrong(int port, const Session& s, const Factor& factor, int count) {
    std::string challengeId;
    for (int i = 0; i < count; ++i) {
        if (i % 5 == 0) challengeId = challengeIdAt(port, s, factor.id);
        auto r = verifyAt(port, s, factor.id, challengeId, wrongCode(factor.secret));
        ASSERT_EQ(r.status, 422) << "guess " << i << ": " << r.body;
        ASSERT_EQ(r.json()["code"], "mfa_verification_failed") << r.body;
    }
}

void expectLockedOut(const HttpResult& r, const std::string& what) {
    EXPECT_EQ(r.status, 429) << what << ": " << r.body;
    if (r.status != 429) return;
    EXPECT_EQ(r.json()["code"], "over_request_rate_limit") << r.body;
    EXPECT_NE(r.json()["message"].get<std::string>().find("Too many wrong two-factor codes"), std::string::npos) << r.body;
    const int retryAfter = std::stoi(r.header("retry-after"));
    EXPECT_GT(retryAfter, 0) << what;
    EXPECT_LE(retryAfter, kWindowSeconds) << what;
}

HttpResult removeFactor(const Session& s, const std::string& factorId, const std::string& code) {
    return del("/auth/v1/factors/" + factorId, s.headers(), {{"code", code}});
}

} // namespace

TEST(AccountGuessing, ElevenWrongCodesOverChallengesSessionsAndServersLockTheSecondFactor) {
    auto u = twoFactorUser("guess-totp");
    const int here = env().port, peer = peerServer();
    // Two sessions that know the password, on two servers behind one database.
    auto first = signInAt(here, u.account);
    auto second = signInAt(peer, u.account);
    guessWrong(here, first, u.factor, 4);
    guessWrong(peer, second, u.factor, 5);
    const auto stillOpen = challengeIdAt(here, first, u.factor.id); // opened below the limit
    EXPECT_EQ(mails("mfa_wrong_codes", u.account.email), 0);         // nine: nothing yet
    guessWrong(here, second, u.factor, 1);                           // the tenth
    EXPECT_EQ(wrongCodesOf(u.account.id), kLimit);
    EXPECT_EQ(mails("mfa_wrong_codes", u.account.email), 1);
    EXPECT_EQ(audited("mfa_wrong_codes_limit", u.account.id), 1);
    EXPECT_EQ(textColumn("SELECT subject FROM mail_outbox WHERE kind = 'mfa_wrong_codes' AND to_address = ?", {u.account.email})
                  .at(0),
              "Someone entered wrong two-factor codes for your Signalcraft account");
    const auto notice =
        textColumn("SELECT body_text FROM mail_outbox WHERE kind = 'mfa_wrong_codes' AND to_address = ?", {u.account.email}).at(0);
    EXPECT_NE(notice.find("entered 10 wrong two-factor codes within 15 minutes"), std::string::npos) << notice;

    // The eleventh try, on either server: no new challenge, and the challenge still open refuses
    // a wrong code (uncounted) and the right code alike, which stays unspent.
    expectLockedOut(challengeAt(here, first, u.factor.id), "a challenge here");
    expectLockedOut(challengeAt(peer, second, u.factor.id), "a challenge on the peer");
    expectLockedOut(verifyAt(here, first, u.factor.id, stillOpen, wrongCode(u.factor.secret)), "a wrong code");
    const auto stepBefore = textColumn("SELECT CAST(last_used_step AS TEXT) FROM mfa_factors WHERE id = ?", {u.factor.id}).at(0);
    auto factor = u.factor;
    expectLockedOut(verifyAt(here, first, u.factor.id, stillOpen, nextCode(factor)), "the right code");
    EXPECT_EQ(textColumn("SELECT CAST(last_used_step AS TEXT) FROM mfa_factors WHERE id = ?", {u.factor.id}).at(0), stepBefore);
    EXPECT_EQ(wrongCodesOf(u.account.id), kLimit);
    EXPECT_EQ(mails("mfa_wrong_codes", u.account.email), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM auth_sessions WHERE id = ? AND aal = 'aal2'", {first.sessionId}), 0);

    // When the window has passed, the right code steps the session up.
    ClockShift later(std::chrono::seconds(kWindowSeconds + 1));
    factor = u.factor;
    auto ok = verifyAt(here, first, u.factor.id, challengeIdAt(here, first, u.factor.id), nextCode(factor));
    ASSERT_EQ(ok.status, 200) << ok.body;
    EXPECT_EQ(jwtClaims(ok.json()["access_token"])["aal"], "aal2");
}

TEST(AccountGuessing, WrongRecoveryCodesAndWrongCodesToRemoveAFactorCountTheSame) {
    auto u = twoFactorUser("guess-recovery");
    auto aal1 = signIn(u.account, newClientIp());
    // Five wrong recovery codes at the sign-in step, five wrong codes (recovery and TOTP) to
    // remove the factor from the aal2 session.
    const auto challengeId = challenge(aal1, u.factor.id);
    for (int i = 0; i < 5; ++i) {
        auto r = verifyRequest(aal1, u.factor.id, challengeId, "zzzzz-zzzz" + std::to_string(i));
        ASSERT_EQ(r.status, 422) << r.body;
    }
    for (int i = 0; i < 5; ++i) {
        auto r = removeFactor(u.session, u.factor.id, i % 2 == 0 ? "yyyyy-yyyy" + std::to_string(i) : wrongCode(u.factor.secret));
        ASSERT_EQ(r.status, 422) << r.body;
        EXPECT_EQ(r.json()["code"], "mfa_verification_failed") << r.body;
    }
    EXPECT_EQ(wrongCodesOf(u.account.id), kLimit);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_wrong_codes WHERE user_id = ? AND method = 'recovery_code'", {u.account.id}), 8);
    EXPECT_EQ(mails("mfa_wrong_codes", u.account.email), 1);
    EXPECT_EQ(audited("mfa_wrong_codes_limit", u.account.id), 1);

    // A right recovery code is refused at the step and for the removal, and stays unused.
    expectLockedOut(removeFactor(u.session, u.factor.id, u.recoveryCodes[0]), "removal with a recovery code");
    expectLockedOut(challengeRequest(aal1, u.factor.id), "a new challenge");
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_recovery_codes WHERE user_id = ? AND used_at IS NOT NULL", {u.account.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ?", {u.factor.id}), 1);
    EXPECT_EQ(wrongCodesOf(u.account.id), kLimit);

    ClockShift later(std::chrono::seconds(kWindowSeconds + 1));
    auto removed = removeFactor(u.session, u.factor.id, u.recoveryCodes[0]);
    ASSERT_EQ(removed.status, 200) << removed.body;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mfa_factors WHERE id = ?", {u.factor.id}), 0);
}

TEST(AccountGuessing, ParallelGuessesAreCountedOneAtATime) {
    auto u = twoFactorUser("guess-parallel");
    const int here = env().port, peer = peerServer();
    // Four sessions (two per server), each with its own challenge, guess five times at once.
    std::vector<std::pair<int, Session>> sessions;
    std::vector<std::string> challenges;
    for (int i = 0; i < 4; ++i) {
        const int port = i % 2 == 0 ? here : peer;
        sessions.emplace_back(port, signInAt(port, u.account));
        challenges.push_back(challengeIdAt(port, sessions.back().second, u.factor.id));
    }
    std::atomic<int> refused{0}, wrong{0}, other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 20; ++i)
        threads.emplace_back([&, i] {
            const auto& [port, session] = sessions[i % 4];
            auto r = verifyAt(port, session, u.factor.id, challenges[i % 4], wrongCode(u.factor.secret));
            if (r.status == 429) ++refused;
            else if (r.status == 422) ++wrong;
            else ++other;
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(other.load(), 0);
    EXPECT_EQ(wrong.load(), kLimit);
    EXPECT_EQ(refused.load(), 20 - kLimit);
    EXPECT_EQ(wrongCodesOf(u.account.id), kLimit);
    EXPECT_EQ(mails("mfa_wrong_codes", u.account.email), 1);
}

TEST(AccountGuessing, TheLimitIsASetting) {
    const int strict = serverWith({{"STOREFRONT_AUTH_MFA_ACCOUNT_LIMIT", "3"}, {"STOREFRONT_AUTH_MFA_ACCOUNT_WINDOW_SECONDS", "60"}});
    auto u = twoFactorUser("guess-setting");
    auto s = signInAt(strict, u.account);
    guessWrong(strict, s, u.factor, 3);
    auto r = challengeAt(strict, s, u.factor.id);
    ASSERT_EQ(r.status, 429) << r.body;
    EXPECT_LE(std::stoi(r.header("retry-after")), 60);
    // env() keeps the default of ten: three wrong codes lock nothing there.
    EXPECT_EQ(challengeRequest(u.session, u.factor.id).status, 200);
}

// ---- links end with the old access --------------------------------------------------------------

namespace {

// One of each link that could still change or open the account: an email change to a new
// address (from the owner's session), a password-recovery link and a magic link (staff's
// generate_link).
struct PendingLinks {
    std::string newAddress, emailChange, recovery, magic;
};

std::string tokenInNewest(const std::string& kind, const std::string& to) {
    auto rows = textColumn("SELECT body_text FROM mail_outbox WHERE kind = ? AND to_address = ? ORDER BY created_at DESC", {kind, to});
    if (rows.empty()) throw std::runtime_error("no " + kind + " mail to " + to);
    std::smatch found;
    if (!std::regex_search(rows.front(), found, std::regex(R"(token=([A-Za-z0-9_-]+))"))) throw std::runtime_error("no link in " + kind);
    return found[1];
}

PendingLinks pendingLinks(const Account& account, const Session& session) {
    PendingLinks links;
    links.newAddress = newEmail("moved-to");
    auto asked = putJson("/auth/v1/user", {{"email", links.newAddress}}, session.headers());
    if (asked.status != 200) throw std::runtime_error("email change: " + asked.body);
    links.emailChange = tokenInNewest("auth_email_change", links.newAddress);
    auto recover = postJson("/auth/v1/recover", {{"email", account.email}}, as(newClientIp()));
    if (recover.status != 200) throw std::runtime_error("recover: " + recover.body);
    links.recovery = tokenInNewest("auth_recovery", account.email);
    auto magic = postJson("/auth/v1/admin/generate_link", {{"type", "magiclink"}, {"email", account.email}}, staff());
    if (magic.status != 200) throw std::runtime_error("magic link: " + magic.body);
    links.magic = tokenOf(magic.json()["action_link"]);
    return links;
}

HttpResult open(const std::string& type, const std::string& token) {
    return postJson("/auth/v1/verify", {{"type", type}, {"token", token}}, as(newClientIp()));
}

// Every link of `links` is refused with 403 otp_expired and the account keeps its address.
void expectAllVoided(const PendingLinks& links, const Account& account, const std::string& after) {
    for (const auto& [type, token] : {std::pair{"email_change", links.emailChange}, {"recovery", links.recovery}, {"magiclink", links.magic}}) {
        auto r = open(type, token);
        EXPECT_EQ(r.status, 403) << after << ", " << type << ": " << r.body;
        if (r.status == 403) {
            EXPECT_EQ(r.json()["code"], "otp_expired") << r.body;
        }
    }
    EXPECT_EQ(textColumn("SELECT email FROM users WHERE id = ?", {account.id}).at(0), account.email) << after;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ? AND email_change IS NULL", {account.id}), 1) << after;
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE email = ?", {links.newAddress}), 0) << after;
}

} // namespace

TEST(AccountLinks, WithNothingInBetweenEachPendingLinkWorks) {
    // The control: the same three links open when no security event came between.
    auto account = createUser("links-control");
    auto session = signIn(account, newClientIp());
    auto links = pendingLinks(account, session);
    auto magic = open("magiclink", links.magic);
    ASSERT_EQ(magic.status, 200) << magic.body;
    EXPECT_EQ(jwtClaims(magic.json()["access_token"])["amr"][0]["method"], "magiclink");
    EXPECT_EQ(open("recovery", links.recovery).status, 200);
    EXPECT_EQ(open("email_change", links.emailChange).status, 200);
    EXPECT_EQ(textColumn("SELECT email FROM users WHERE id = ?", {account.id}).at(0), links.newAddress);
}

TEST(AccountLinks, APasswordChangeVoidsEveryPendingLink) {
    auto account = createUser("links-password");
    auto session = signIn(account, newClientIp());
    auto links = pendingLinks(account, session);
    auto changed = putJson("/auth/v1/user", {{"password", "A brand new passphrase 7"}, {"current_password", account.password}},
                           session.headers());
    ASSERT_EQ(changed.status, 200) << changed.body;
    expectAllVoided(links, account, "a password change");
    EXPECT_NE(textColumn("SELECT detail FROM audit_log WHERE action = 'password_changed' AND target_id = ?", {account.id})
                  .at(0)
                  .find("\"links_voided\":3"),
              std::string::npos);
}

TEST(AccountLinks, SigningOutEverywhereVoidsEveryPendingLink) {
    for (const char* scope : {"global", "others"}) {
        auto account = createUser(std::string("links-signout-") + scope);
        auto session = signIn(account, newClientIp());
        auto links = pendingLinks(account, session);
        auto out = postJson(std::string("/auth/v1/logout?scope=") + scope, nlohmann::json::object(), session.headers());
        ASSERT_EQ(out.status, 204) << out.body;
        expectAllVoided(links, account, std::string("signing out, scope ") + scope);
    }
    // Signing this device out only is no security event: the links stay.
    auto account = createUser("links-signout-local");
    auto session = signIn(account, newClientIp());
    auto links = pendingLinks(account, session);
    ASSERT_EQ(postJson("/auth/v1/logout?scope=local", nlohmann::json::object(), session.headers()).status, 204);
    EXPECT_EQ(open("recovery", links.recovery).status, 200);
}

TEST(AccountLinks, AStaffResetOfTwoFactorVoidsEveryPendingLink) {
    auto u = twoFactorUser("links-reset");
    auto links = pendingLinks(u.account, u.session);
    auto reset = del("/api/v1/admin/customers/" + u.account.id + "/factors", staff(), {{"reason", "Lost phone, checked by video call"}});
    ASSERT_EQ(reset.status, 200) << reset.body;
    expectAllVoided(links, u.account, "a staff reset of two-factor");
}

} // namespace account_guessing_test
