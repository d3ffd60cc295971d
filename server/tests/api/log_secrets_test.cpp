// The real executable at the most verbose log level, through a sign-up, a sign-in, a TOTP
// enrolment and verification, a refresh, and Stripe webhooks (good and badly signed): its whole
// log (stdout and stderr) must not contain the password, any token, the TOTP secret or code, the
// webhook secret, the Stripe key or the TOTP key.
#include "api/harness.h"

#include "auth/totp.h"
#include "billing/provider/stripe_signature.h"

#include <Poco/Net/ServerSocket.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/Timestamp.h>
#include <gtest/gtest.h>

#include <csignal>
#include <future>

using namespace testing_support;

namespace {

int logCheckPort() {
    Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
    return s.address().port();
}

std::size_t lineCount(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

} // namespace

TEST(LogSecrets, ASignUpTotpEnrolmentAndPaymentWebhookRunLogsNoSecretAtAnyLevel) {
    const int port = logCheckPort();
    const std::string dir = ::testing::TempDir() + "/logsecrets-" + storefront::db::newId();
    const std::string password = "Kea-log-secret-" + storefront::db::newId().substr(0, 8);
    const std::string webhookSecret = "whsec_logcheck_" + storefront::db::newId().substr(0, 12);
    const std::string stripeKey = "sk_test_logcheck_" + storefront::db::newId().substr(0, 12);
    const std::string totpKey = "log-check-totp-key-" + storefront::db::newId();
    Poco::Process::Env environment = {
        {"STOREFRONT_ENV", "development"},
        {"STOREFRONT_PORT", std::to_string(port)},
        {"STOREFRONT_DATA_DIR", dir},
        {"STOREFRONT_WEB_DIR", dir + "/no-web"},
        {"STOREFRONT_LOG_LEVEL", "trace"},
        {"STOREFRONT_AUTH_CONFIRM_EMAIL", "false"},
        {"STOREFRONT_AUTH_ARGON2_OPS", "1"},
        {"STOREFRONT_AUTH_ARGON2_MEMORY_KIB", "8192"},
        {"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
        {"STRIPE_SECRET_KEY", stripeKey},
        {"STRIPE_WEBHOOK_SECRET", webhookSecret},
        {"STRIPE_API_BASE", "http://127.0.0.1:9"},
        {"STOREFRONT_TOTP_KEY", totpKey},
    };
    Poco::Pipe outPipe;
    auto handle = Poco::Process::launch(STOREFRONT_BINARY, {}, ::testing::TempDir(), nullptr, &outPipe, &outPipe, environment);
    Poco::PipeInputStream output(outPipe);
    auto logs = std::async(std::launch::async, [&output] {
        std::string all, line;
        while (std::getline(output, line)) all += line + "\n";
        return all;
    });
    bool up = eventually([&] {
        try {
            return http(port, "GET", "/healthz").status == 200;
        } catch (const std::exception&) {
            return false;
        }
    }, 20);
    ASSERT_TRUE(up);
    const Headers json{{"Content-Type", "application/json"}};
    auto bearer = [&](const std::string& token) {
        Headers h = json;
        h["Authorization"] = "Bearer " + token;
        return h;
    };
    std::vector<std::pair<std::string, std::string>> secrets = {
        {"password", password}, {"webhook secret", webhookSecret}, {"Stripe key", stripeKey}, {"TOTP key", totpKey}};

    // Sign-up (a session at once: confirmation is off) and sign-in, one wrong password too.
    const std::string email = "log-" + storefront::db::newId().substr(0, 8) + "@example.nz";
    auto signup = http(port, "POST", "/auth/v1/signup", nlohmann::json{{"email", email}, {"password", password}}.dump(), json);
    ASSERT_EQ(signup.status, 200) << signup.body;
    EXPECT_EQ(http(port, "POST", "/auth/v1/token?grant_type=password",
                   nlohmann::json{{"email", email}, {"password", password + "x"}}.dump(), json).status, 400);
    auto signin = http(port, "POST", "/auth/v1/token?grant_type=password",
                       nlohmann::json{{"email", email}, {"password", password}}.dump(), json);
    ASSERT_EQ(signin.status, 200) << signin.body;
    std::string access = signin.json()["access_token"], refresh = signin.json()["refresh_token"];
    secrets.push_back({"sign-up access token", signup.json()["access_token"]});
    secrets.push_back({"access token", access});
    secrets.push_back({"access token signature", access.substr(access.rfind('.') + 1)});
    secrets.push_back({"refresh token", refresh});

    // TOTP: enrol, challenge, verify, and one wrong code.
    auto enrol = http(port, "POST", "/auth/v1/factors", nlohmann::json{{"factor_type", "totp"}}.dump(), bearer(access));
    ASSERT_EQ(enrol.status, 200) << enrol.body;
    const std::string factorId = enrol.json()["id"], secret = enrol.json()["totp"]["secret"];
    secrets.push_back({"TOTP secret", secret});
    secrets.push_back({"TOTP uri", enrol.json()["totp"]["uri"]});
    auto challengeOf = [&] {
        return http(port, "POST", "/auth/v1/factors/" + factorId + "/challenge", "{}", bearer(access)).json()["id"].get<std::string>();
    };
    const auto step = Poco::Timestamp().epochTime() / 30;
    const std::string code = storefront::auth::totpCode(secret, step);
    const std::string wrong = code == "000000" ? "111111" : "000000";
    EXPECT_EQ(http(port, "POST", "/auth/v1/factors/" + factorId + "/verify",
                   nlohmann::json{{"challenge_id", challengeOf()}, {"code", wrong}}.dump(), bearer(access)).status, 422);
    auto verify = http(port, "POST", "/auth/v1/factors/" + factorId + "/verify",
                       nlohmann::json{{"challenge_id", challengeOf()}, {"code", code}}.dump(), bearer(access));
    ASSERT_EQ(verify.status, 200) << verify.body;
    secrets.push_back({"aal2 access token", verify.json()["access_token"]});
    secrets.push_back({"aal2 refresh token", verify.json()["refresh_token"]});
    auto refreshed = http(port, "POST", "/auth/v1/token?grant_type=refresh_token",
                          nlohmann::json{{"refresh_token", verify.json()["refresh_token"]}}.dump(), json);
    ASSERT_EQ(refreshed.status, 200) << refreshed.body;
    secrets.push_back({"refreshed access token", refreshed.json()["access_token"]});
    secrets.push_back({"refreshed refresh token", refreshed.json()["refresh_token"]});

    // A payment webhook (a paid guest checkout), then one signed with another secret.
    const auto now = Poco::Timestamp().epochTime();
    const std::string payload =
        nlohmann::json{{"id", "evt_log_" + storefront::db::newId().substr(0, 8)}, {"object", "event"},
                       {"type", "checkout.session.completed"}, {"created", now},
                       {"data", {{"object", {{"id", "cs_log_" + storefront::db::newId().substr(0, 8)}, {"object", "checkout.session"},
                                             {"mode", "payment"}, {"payment_status", "paid"}, {"amount_total", 12900},
                                             {"currency", "nzd"}, {"customer_details", {{"email", "guest-" + email}}}}}}}}
            .dump();
    const std::string signature = storefront::billing::stripeSignatureHeader(webhookSecret, payload, now);
    secrets.push_back({"webhook signature", signature.substr(signature.find("v1=") + 3)});
    Headers signedHeaders = json;
    signedHeaders["Stripe-Signature"] = signature;
    auto webhook = http(port, "POST", "/webhooks/stripe", payload, signedHeaders);
    EXPECT_EQ(webhook.status, 200) << webhook.body;
    signedHeaders["Stripe-Signature"] = storefront::billing::stripeSignatureHeader("whsec_someone_else", payload, now);
    EXPECT_EQ(http(port, "POST", "/webhooks/stripe", payload, signedHeaders).status, 400);

    ::kill(handle.id(), SIGTERM);
    EXPECT_EQ(handle.wait(), 0);
    const auto text = logs.get();
    // The log really is the verbose one of this run.
    EXPECT_NE(text.find("POST /auth/v1/signup 200"), std::string::npos) << text;
    EXPECT_NE(text.find("POST /webhooks/stripe 200"), std::string::npos) << text;
    EXPECT_NE(text.find("POST /auth/v1/factors/" + factorId + "/verify 200"), std::string::npos) << text;
    for (const auto& [name, value] : secrets) {
        ASSERT_GE(value.size(), 8u) << name;
        EXPECT_EQ(text.find(value), std::string::npos) << "the log holds the " << name;
    }
    // The code is six digits and could match a timestamp by chance; look for it where it would be said.
    EXPECT_EQ(text.find("code " + code), std::string::npos);
    EXPECT_EQ(text.find("\"" + code + "\""), std::string::npos);
    std::cout << "log at trace level: " << lineCount(text) << " lines, " << text.size() << " bytes; " << secrets.size()
              << " secret values searched, 0 found\n";
}
