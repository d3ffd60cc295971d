// Every response carries the security headers: API answers, errors of every kind (401, 403, 404,
// 405, 413, 415, 422, 400), static files, the SPA shell, redirects, 304s, HEAD, the SEO files.
#include "api/auth_support.h"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>

#include <tuple>

using namespace testing_support;

namespace {

// The headers a response must have; returns what is missing or wrong (empty when fine).
std::string securityHeadersMissing(const HttpResult& r) {
    std::string problems;
    const auto csp = r.header("content-security-policy");
    if (csp.find("frame-ancestors 'none'") == std::string::npos) problems += " CSP without frame-ancestors 'none' ('" + csp + "');";
    if (csp.find("default-src 'self'") == std::string::npos) problems += " CSP without default-src;";
    if (r.header("x-content-type-options") != "nosniff") problems += " X-Content-Type-Options;";
    if (r.header("referrer-policy").empty()) problems += " Referrer-Policy;";
    if (r.header("x-frame-options") != "DENY") problems += " X-Frame-Options;";
    return problems;
}

} // namespace

TEST(SecurityHeaders, EveryKindOfResponseCarriesThem) {
    const auto ip = newClientIp();
    auto customer = signIn(createUser("headers"), ip);
    const auto etagOf = [](const std::string& path) { return get(path).header("etag"); };
    const std::string assetTag = etagOf("/assets/app-3f2a1b.js");
    const int port = env().port;
    const std::string bigBody(70000, 'x'); // over the test server's 64 KiB limit
    // Requests POCO's reader refuses before any handler (http/connection.cpp answers them).
    const std::string bigHeader = "GET /api/v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(20000, 'h') + "\r\n\r\n";
    std::string manyHeaders = "GET /api/v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < 101; ++i) manyHeaders += "X-Field-" + std::to_string(i) + ": v\r\n";
    manyHeaders += "\r\n";

    const std::vector<std::pair<std::string, HttpResult>> answers = {
        {"API list", getJson("/api/v1/products")},
        {"health", get("/healthz")},
        {"auth settings", get("/auth/v1/settings")},
        {"jwks", get("/auth/v1/.well-known/jwks.json")},
        {"signed-in user", userRequest(customer)},
        {"401 no token", get("/auth/v1/user", as(ip))},
        {"401 no token on the API", getJson("/api/v1/account/orders", as(ip))},
        {"403 bad token", get("/auth/v1/user", as(ip, "not.a.jwt"))},
        {"403 customer on a staff route", getJson("/api/v1/admin/audit", customer.headers())},
        {"403 customer on the admin users API", get("/auth/v1/admin/users", customer.headers())},
        {"404 API", getJson("/api/v1/nothing-here")},
        {"404 unknown id", getJson("/api/v1/products/no-such-product")},
        {"404 page", get("/no-such-page/at-all")},
        {"405", http(port, "DELETE", "/api/v1/products")},
        {"400 malformed JSON", http(port, "POST", "/api/v1/contact", "{not json", {{"Content-Type", "application/json"}})},
        {"415", http(port, "POST", "/api/v1/contact", "a=b", {{"Content-Type", "application/x-www-form-urlencoded"}})},
        {"413", http(port, "POST", "/api/v1/contact", bigBody, {{"Content-Type", "application/json"}})},
        {"422 validation", postJson("/api/v1/contact", {{"email", "nope"}}, as(newClientIp()))},
        {"400 webhook without signature", http(port, "POST", "/webhooks/stripe", "{}", {{"Content-Type", "application/json"}})},
        {"static file", get("/assets/app-3f2a1b.js")},
        {"static file, brotli", get("/assets/app-3f2a1b.js", {{"Accept-Encoding", "br"}})},
        {"304", get("/assets/app-3f2a1b.js", {{"If-None-Match", assetTag}})},
        {"svg image", get("/products/hit/hit-interface.svg")},
        {"SPA shell", get("/")},
        {"SPA route", get("/account")},
        {"HEAD of the shell", http(port, "HEAD", "/")},
        {"robots", get("/robots.txt")},
        {"sitemap", get("/sitemap.xml")},
        {"400 malformed request line", rawHttp(port, "GARBAGE\r\n\r\n", /*halfClose=*/true)},
        {"431 a 20,000-byte header", rawHttp(port, bigHeader)},
        {"431 101 header fields", rawHttp(port, manyHeaders)},
        {"redirect of a bad link", http(port, "GET", "/auth/v1/verify?token=nope&type=signup&redirect_to=" + kPublicUrl)},
    };
    int checked = 0;
    for (const auto& [name, r] : answers) {
        EXPECT_EQ(securityHeadersMissing(r), "") << name << " (" << r.status << ")";
        ++checked;
    }
    // The list really covers each kind.
    std::set<int> statuses;
    for (const auto& [name, r] : answers) statuses.insert(r.status);
    for (int status : {200, 303, 304, 400, 401, 403, 404, 405, 413, 415, 422, 431})
        EXPECT_TRUE(statuses.contains(status)) << "no response with status " << status << " in the list";
    std::cout << "security headers checked on " << checked << " responses, " << statuses.size() << " distinct statuses\n";
}

TEST(SecurityHeaders, RequestsPocoCannotReadGetOurJsonErrorAndTheConnectionCloses) {
    const int port = env().port;
    std::string manyHeaders = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < 101; ++i) manyHeaders += "X-Field-" + std::to_string(i) + ": v\r\n";
    const std::vector<std::tuple<std::string, HttpResult, int, std::string>> answers = {
        {"malformed request line", rawHttp(port, "GARBAGE\r\n\r\n", true), 400, "bad_request"},
        {"method over 32 bytes", rawHttp(port, std::string(40, 'M') + " / HTTP/1.1\r\n\r\n"), 400, "bad_request"},
        {"header value of 20,000 bytes", rawHttp(port, "GET / HTTP/1.1\r\nX-Big: " + std::string(20000, 'h') + "\r\n\r\n"), 431,
         "request_header_too_large"},
        {"101 header fields", rawHttp(port, manyHeaders + "\r\n"), 431, "request_header_too_large"},
    };
    for (const auto& [name, r, status, code] : answers) {
        EXPECT_EQ(r.status, status) << name << ": " << r.body.substr(0, 200);
        const auto body = nlohmann::json::parse(r.body, nullptr, false);
        EXPECT_EQ(body.is_object() ? body.value("code", "") : "", code) << name << ": " << r.body.substr(0, 200);
        EXPECT_TRUE(body.is_object() && body.contains("message")) << name;
        EXPECT_EQ(r.header("connection"), "close") << name;
        EXPECT_EQ(r.header("content-length"), std::to_string(r.body.size())) << name;
        EXPECT_EQ(securityHeadersMissing(r), "") << name;
    }
    // The server goes on answering normally.
    EXPECT_EQ(get("/healthz").status, 200);
}

TEST(SecurityHeaders, TheCheckFailsOnAResponseWithoutThem) {
    HttpResult bare;
    bare.status = 200;
    EXPECT_NE(securityHeadersMissing(bare), "");
}
