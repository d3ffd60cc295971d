#include "api/auth_support.h"

#include "auth/password.h"
#include "auth/secrets.h"
#include "auth/totp.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Nullable.h>
#include <Poco/StringTokenizer.h>
#include <Poco/Timestamp.h>
#include <Poco/URI.h>

#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>

using namespace Poco::Data::Keywords;

namespace testing_support {

namespace {

[[noreturn]] void fail(const std::string& what, const HttpResult& r) {
    throw std::runtime_error(what + ": HTTP " + std::to_string(r.status) + " " + r.body);
}

// Binds `params` in order and runs `sql`; the statement stays usable for a RecordSet.
void run(Poco::Data::Statement& statement, const std::string& sql, std::vector<std::string>& params) {
    statement << env().db->sql(sql);
    for (auto& p : params) statement, use(p);
    statement.execute();
}

// Quoted-printable (RFC 2045) to text: soft line breaks go, =XX becomes the byte.
std::string decodeQuotedPrintable(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '=') {
            out += text[i];
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == '\n') {
            ++i;
        } else if (i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
                   std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
            out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += '=';
        }
    }
    return out;
}

} // namespace

std::string newClientIp() {
    static std::mt19937 random{std::random_device{}()};
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::uniform_int_distribution<int> octet(1, 254);
    return "10." + std::to_string(octet(random)) + "." + std::to_string(octet(random)) + "." + std::to_string(octet(random));
}

Headers as(const std::string& ip, const std::string& accessToken) {
    Headers h{{"X-Forwarded-For", ip}};
    if (!accessToken.empty()) h["Authorization"] = "Bearer " + accessToken;
    return h;
}

nlohmann::json jwtClaims(const std::string& jwt) {
    Poco::StringTokenizer parts(jwt, ".");
    if (parts.count() != 3) throw std::runtime_error("not a JWT: " + jwt);
    auto payload = storefront::auth::fromBase64Url(parts[1]);
    if (!payload) throw std::runtime_error("JWT payload is not base64url");
    return nlohmann::json::parse(*payload);
}

nlohmann::json jwtHeader(const std::string& jwt) {
    auto header = storefront::auth::fromBase64Url(jwt.substr(0, jwt.find('.')));
    if (!header) throw std::runtime_error("JWT header is not base64url");
    return nlohmann::json::parse(*header);
}

std::int64_t countRows(const std::string& sql, const std::vector<std::string>& params) {
    auto values = params;
    auto s = env().db->session();
    Poco::Data::Statement statement(s);
    run(statement, sql, values);
    Poco::Data::RecordSet rs(statement);
    return rs.value(0, 0).convert<Poco::Int64>();
}

void execSql(const std::string& sql, const std::vector<std::string>& params) {
    auto values = params;
    env().db->write([&](storefront::db::Tx& tx) {
        auto& s = tx.session();
        Poco::Data::Statement statement(s);
        run(statement, sql, values);
    });
}

std::vector<std::string> textColumn(const std::string& sql, const std::vector<std::string>& params) {
    auto values = params;
    auto s = env().db->session();
    Poco::Data::Statement statement(s);
    run(statement, sql, values);
    Poco::Data::RecordSet rs(statement);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < rs.rowCount(); ++i) out.push_back(rs.value(0, i).isEmpty() ? "" : rs.value(0, i).convert<std::string>());
    return out;
}

std::int64_t usersCount() { return countRows("SELECT COUNT(*) FROM users"); }

std::string newEmail(const std::string& prefix) { return unique(prefix) + "@example.nz"; }

Account createUser(const std::string& prefix, bool confirmed) {
    static storefront::auth::PasswordHasher hasher({1, 8192}, 1, 8);
    Account a{storefront::db::newId(), newEmail(prefix), "Kea-" + storefront::db::newId().substr(0, 12)};
    const std::string hash = hasher.hash(a.password), at = testClock().nowTimestamp();
    Poco::Nullable<std::string> confirmedAt;
    if (confirmed) confirmedAt = at;
    auto& db = *env().db;
    db.write([&](storefront::db::Tx& tx) {
        auto& s = tx.session();
        std::string id = a.id, email = a.email, h = hash, t = at;
        s << db.sql("INSERT INTO users (id, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, '{}', '{}', ?, ?)"),
            use(id), use(email), use(h), use(confirmedAt), use(t), use(t), now;
        s << db.sql("INSERT INTO profiles (id, email, created_at, updated_at) VALUES (?, ?, ?, ?)"), use(id), use(email), use(t), use(t),
            now;
    });
    return a;
}

void grantAdmin(const std::string& userId) {
    execSql("INSERT INTO user_roles (user_id, role, granted_at) VALUES (?, 'admin', ?)", {userId, testClock().nowTimestamp()});
}

void Session::take(const nlohmann::json& tokenResponse) {
    accessToken = tokenResponse.at("access_token").get<std::string>();
    refreshToken = tokenResponse.at("refresh_token").get<std::string>();
    userId = tokenResponse.at("user").at("id").get<std::string>();
    sessionId = jwtClaims(accessToken).at("session_id").get<std::string>();
}

HttpResult signInRequest(const std::string& email, const std::string& password, const std::string& ip) {
    return postJson("/auth/v1/token?grant_type=password", {{"email", email}, {"password", password}}, as(ip));
}

Session signIn(const Account& account, const std::string& ip) {
    auto r = signInRequest(account.email, account.password, ip);
    if (r.status != 200) fail("sign-in of " + account.email, r);
    Session s;
    s.ip = ip;
    s.take(r.json());
    return s;
}

HttpResult refreshRequest(const std::string& refreshToken, const std::string& ip) {
    return postJson("/auth/v1/token?grant_type=refresh_token", {{"refresh_token", refreshToken}}, as(ip));
}

HttpResult userRequest(const Session& session) { return get("/auth/v1/user", session.headers()); }

// On the servers' clock (testClock()), which a test may have moved.
std::int64_t totpStepNow() { return testClock().epochSeconds() / storefront::auth::kTotpPeriodSeconds; }

void awayFromStepBoundary(int marginSeconds) {
    const auto period = storefront::auth::kTotpPeriodSeconds;
    const auto intoStep = Poco::Timestamp().epochTime() % period;
    if (intoStep > period - marginSeconds) std::this_thread::sleep_for(std::chrono::seconds(period - intoStep + 1));
}

std::string wrongCode(const std::string& secret) {
    const auto step = totpStepNow();
    for (int candidate = 0;; candidate += 111111) {
        auto code = std::to_string(100000 + candidate % 900000);
        bool matches = false;
        for (auto s = step - 3; s <= step + 3; ++s) matches = matches || storefront::auth::totpCode(secret, s) == code;
        if (!matches) return code;
    }
}

HttpResult enrolRequest(const Session& session, const nlohmann::json& body) {
    return postJson("/auth/v1/factors", body, session.headers());
}

Factor enrolFactor(const Session& session) {
    auto r = enrolRequest(session);
    if (r.status != 200) fail("enrol", r);
    auto j = r.json();
    return Factor{j.at("id").get<std::string>(), j.at("totp").at("secret").get<std::string>()};
}

HttpResult challengeRequest(const Session& session, const std::string& factorId) {
    return http(env().port, "POST", "/auth/v1/factors/" + factorId + "/challenge", "", session.headers());
}

std::string challenge(const Session& session, const std::string& factorId) {
    auto r = challengeRequest(session, factorId);
    if (r.status != 200) fail("challenge", r);
    return r.json().at("id").get<std::string>();
}

HttpResult verifyRequest(const Session& session, const std::string& factorId, const std::string& challengeId, const std::string& code) {
    return postJson("/auth/v1/factors/" + factorId + "/verify", {{"challenge_id", challengeId}, {"code", code}}, session.headers());
}

std::string nextCode(Factor& factor) {
    const auto step = std::max(totpStepNow(), factor.lastStep + 1);
    // The server takes one step of skew: a code for the next step works as soon as this one began.
    while (step > totpStepNow() + 1) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    factor.lastStep = step;
    return storefront::auth::totpCode(factor.secret, step);
}

void stepUp(Session& session, Factor& factor) {
    auto challengeId = challenge(session, factor.id);
    auto r = verifyRequest(session, factor.id, challengeId, nextCode(factor));
    if (r.status != 200) fail("factor verify", r);
    session.take(r.json());
}

Factor enrolVerifiedFactor(Session& session) {
    auto factor = enrolFactor(session);
    stepUp(session, factor);
    return factor;
}

StaffAdmin createStaffAdmin(const std::string& ip) {
    StaffAdmin admin;
    admin.account = createUser("admin");
    grantAdmin(admin.account.id);
    admin.session = signIn(admin.account, ip);
    admin.factor = enrolVerifiedFactor(admin.session);
    return admin;
}

std::vector<std::string> mailTo(const std::string& email) {
    std::vector<std::string> out;
    for (const auto& m : env().smtp->messages()) {
        auto split = m.find("\n\n");
        if (split == std::string::npos) continue;
        const std::string headers = m.substr(0, split);
        if (("\n" + headers + "\n").find("\nTo: " + email + "\n") == std::string::npos) continue;
        out.push_back(decodeQuotedPrintable(m.substr(split + 2)));
    }
    return out;
}

std::vector<std::string> linksTo(const std::string& email, const std::string& type) {
    const std::string start = kPublicUrl + "/auth/v1/verify?token=";
    std::vector<std::string> links;
    for (const auto& body : mailTo(email)) {
        for (auto at = body.find(start); at != std::string::npos; at = body.find(start, at + 1)) {
            auto link = body.substr(at, body.find_first_of(" \r\n", at) - at);
            if (link.find("&type=" + type + "&") != std::string::npos) links.push_back(link);
        }
    }
    return links;
}

std::string waitForLink(const std::string& email, const std::string& type, std::size_t count) {
    if (!eventually([&] { return linksTo(email, type).size() >= count; }))
        throw std::runtime_error("no " + type + " link #" + std::to_string(count) + " was mailed to " + email);
    return linksTo(email, type).back();
}

std::string linkParam(const std::string& link, const std::string& name) {
    for (const auto& [k, v] : Poco::URI(link).getQueryParameters())
        if (k == name) return v;
    throw std::runtime_error("no " + name + " in " + link);
}

std::string tokenOf(const std::string& link) { return linkParam(link, "token"); }

std::string pathOf(const std::string& url) {
    auto scheme = url.find("://");
    if (scheme == std::string::npos) return url;
    auto path = url.find('/', scheme + 3);
    return path == std::string::npos ? "/" : url.substr(path);
}

HttpResult followLink(const std::string& link, const std::string& ip) { return get(pathOf(link), as(ip)); }

Redirect redirectOf(const HttpResult& response) {
    const std::string location = response.header("location");
    Redirect r;
    auto hash = location.find('#');
    r.target = location.substr(0, hash);
    if (hash == std::string::npos) return r;
    Poco::StringTokenizer pairs(location.substr(hash + 1), "&", Poco::StringTokenizer::TOK_IGNORE_EMPTY);
    for (const auto& pair : pairs) {
        auto eq = pair.find('=');
        std::string value;
        Poco::URI::decode(eq == std::string::npos ? "" : pair.substr(eq + 1), value);
        r.fragment[pair.substr(0, eq)] = value;
    }
    return r;
}

} // namespace testing_support
