#include "http/api_error.h"
#include "http/paging.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "http/security_headers.h"
#include "http/static_files.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace storefront::http;

TEST(ApiError, OneMapFromKindToStatus) {
    EXPECT_EQ(statusFor(ErrorKind::BadRequest), 400);
    EXPECT_EQ(statusFor(ErrorKind::Unauthorized), 401);
    EXPECT_EQ(statusFor(ErrorKind::Forbidden), 403);
    EXPECT_EQ(statusFor(ErrorKind::NotFound), 404);
    EXPECT_EQ(statusFor(ErrorKind::MethodNotAllowed), 405);
    EXPECT_EQ(statusFor(ErrorKind::Conflict), 409);
    EXPECT_EQ(statusFor(ErrorKind::RequestTimeout), 408);
    EXPECT_EQ(statusFor(ErrorKind::PayloadTooLarge), 413);
    EXPECT_EQ(statusFor(ErrorKind::UnsupportedMediaType), 415);
    EXPECT_EQ(statusFor(ErrorKind::Validation), 422);
    EXPECT_EQ(statusFor(ErrorKind::RateLimited), 429);
    EXPECT_EQ(statusFor(ErrorKind::Internal), 500);
    EXPECT_EQ(statusFor(ErrorKind::Unavailable), 503);
}

TEST(ApiError, BodyHasCodeMessageAndFieldsOnlyWhenPresent) {
    ApiError plain(ErrorKind::NotFound, "product_not_found", "Product Not Found");
    EXPECT_EQ(plain.body().dump(), R"({"code":"product_not_found","message":"Product Not Found"})");
    auto v = ApiError::validation({{"email", "Enter a valid email address."}});
    EXPECT_EQ(v.status(), 422);
    EXPECT_EQ(v.body()["fields"]["email"], "Enter a valid email address.");
    EXPECT_EQ(ApiError::rateLimited(30).retryAfterSeconds.value(), 30);
}

TEST(Router, ListsEveryRouteWithItsPatternAndAccess) {
    Router router;
    const Handler none = [](Request&, Response&) {};
    router.get("/api/v1/products/{slug}", Access::Anyone, none);
    router.add("PATCH", "/api/v1/admin/orders/{id}", Access::StaffAdmin, none);
    router.del("/api/v1/enterprise/members/{id}", Access::EnterpriseAdmin, none);
    const auto routes = router.routes();
    ASSERT_EQ(routes.size(), 3u);
    EXPECT_EQ(routes[0].method, "GET");
    EXPECT_EQ(routes[0].pattern, "/api/v1/products/{slug}");
    EXPECT_EQ(routes[0].access, Access::Anyone);
    EXPECT_EQ(routes[1].method, "PATCH");
    EXPECT_EQ(routes[1].pattern, "/api/v1/admin/orders/{id}");
    EXPECT_EQ(routes[1].access, Access::StaffAdmin);
    EXPECT_EQ(routes[2].method, "DELETE");
    EXPECT_EQ(routes[2].access, Access::EnterpriseAdmin);
}

TEST(StaticFiles, ChoosesBrotliThenGzipHonouringQZero) {
    EXPECT_EQ(chooseEncoding("gzip, deflate, br", true, true), "br");
    EXPECT_EQ(chooseEncoding("gzip, deflate, br", false, true), "gzip");
    EXPECT_EQ(chooseEncoding("gzip;q=0, br;q=0", true, true), "");
    EXPECT_EQ(chooseEncoding("br;q=0, gzip", true, true), "gzip");
    EXPECT_EQ(chooseEncoding("", true, true), "");
    EXPECT_EQ(chooseEncoding("*", true, true), "br");
    EXPECT_EQ(chooseEncoding("identity", true, true), "");
}

TEST(StaticFiles, ContentTypesByExtension) {
    EXPECT_EQ(StaticFiles::contentTypeFor("/assets/index-abc.js"), "text/javascript; charset=utf-8");
    EXPECT_EQ(StaticFiles::contentTypeFor("/products/hit/hit-interface.svg"), "image/svg+xml");
    EXPECT_EQ(StaticFiles::contentTypeFor("/INDEX.HTML"), "text/html; charset=utf-8");
    EXPECT_EQ(StaticFiles::contentTypeFor("/x.unknown"), "application/octet-stream");
}

TEST(ClientAddress, ForwardedForIsBelievedOnlyFromTrustedProxies) {
    const std::vector<std::string> proxies = {"127.0.0.1", "10.0.0.5"};
    // A stranger cannot pick its own address by sending the header.
    EXPECT_EQ(clientAddressFrom("203.0.113.9", "198.51.100.1", proxies), "203.0.113.9");
    // Through our proxy: the hop it added.
    EXPECT_EQ(clientAddressFrom("127.0.0.1", "198.51.100.1", proxies), "198.51.100.1");
    // A client-written prefix is ignored: the right-most untrusted hop counts.
    EXPECT_EQ(clientAddressFrom("127.0.0.1", "1.2.3.4, 198.51.100.1", proxies), "198.51.100.1");
    // Our own proxies are skipped from the right.
    EXPECT_EQ(clientAddressFrom("127.0.0.1", " 198.51.100.1 ,10.0.0.5,", proxies), "198.51.100.1");
    // Only proxies, or nothing: the peer.
    EXPECT_EQ(clientAddressFrom("127.0.0.1", "10.0.0.5", proxies), "127.0.0.1");
    EXPECT_EQ(clientAddressFrom("127.0.0.1", "", proxies), "127.0.0.1");
    EXPECT_EQ(clientAddressFrom("127.0.0.1", "9.9.9.9", {}), "127.0.0.1");
}

namespace {
std::vector<std::string> headerValues(const storefront::http::Response& r, const std::string& name) {
    std::vector<std::string> values;
    for (const auto& [k, v] : r.headers)
        if (k == name) values.push_back(v);
    return values;
}
} // namespace

TEST(SecurityHeaders, AddsTheDefaultsOnce) {
    storefront::http::Response r;
    storefront::http::addSecurityHeaders(r, true);
    EXPECT_EQ(headerValues(r, "Referrer-Policy"), std::vector<std::string>{"strict-origin-when-cross-origin"});
    EXPECT_EQ(headerValues(r, "X-Frame-Options"), std::vector<std::string>{"DENY"});
    EXPECT_EQ(headerValues(r, "Strict-Transport-Security").size(), 1u);
    storefront::http::Response plain;
    storefront::http::addSecurityHeaders(plain, false);
    EXPECT_TRUE(headerValues(plain, "Strict-Transport-Security").empty());
}

TEST(SecurityHeaders, KeepsAReferrerPolicyTheHandlerChose) {
    storefront::http::Response r;
    r.set("Referrer-Policy", "no-referrer");
    storefront::http::addSecurityHeaders(r, false);
    // A second header would win in browsers (the last policy counts), so there must be only one.
    EXPECT_EQ(headerValues(r, "Referrer-Policy"), std::vector<std::string>{"no-referrer"});
}

