// Cache-Control is set in one place (http/router.h, Store): every answer of a route that is not
// public, and every error answer, is `no-store`, exactly once; public routes that may be cached
// keep their own caching, and the few public routes that hand out secrets opt in to no-store.
#include "api/auth_support.h"
#include "api/harness.h"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/String.h>

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace testing_support;

namespace {

// Every Cache-Control header of one answer (a second one would make browsers pick either).
std::vector<std::string> cacheControls(const std::string& method, const std::string& path, const Headers& headers = {}) {
    Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(env().port));
    session.setTimeout(Poco::Timespan(30, 0));
    Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    for (const auto& [k, v] : headers) request.set(k, v);
    if (method == "POST") request.setContentLength(0);
    session.sendRequest(request);
    Poco::Net::HTTPResponse response;
    auto& in = session.receiveResponse(response);
    std::ostringstream drained;
    drained << in.rdbuf();
    std::vector<std::string> values;
    for (const auto& [name, value] : response)
        if (Poco::icompare(name, "Cache-Control") == 0) values.push_back(value);
    return values;
}

const std::vector<std::string> kOnlyNoStore{"no-store"};

} // namespace

TEST(CacheControl, EveryAnswerOfASignedInOrStaffRouteIsNoStoreOnce) {
    auto staff = createStaffAdmin(newClientIp());
    const auto headers = staff.session.headers();
    for (const char* path : {"/api/v1/admin/audit", "/api/v1/admin/orders", "/api/v1/admin/products", "/api/v1/admin/stats",
                             "/api/v1/admin/wirewrite/workers", "/api/v1/admin/enterprise-accounts", "/api/v1/account/dashboard"})
        EXPECT_EQ(cacheControls("GET", path, headers), kOnlyNoStore) << path;
}

TEST(CacheControl, ErrorAnswersAreNoStore) {
    // 401 (no token), 404 (a malformed id), 422 (bad paging) and 405.
    auto staff = createStaffAdmin(newClientIp());
    EXPECT_EQ(cacheControls("GET", "/api/v1/admin/audit"), kOnlyNoStore);
    EXPECT_EQ(cacheControls("GET", "/api/v1/admin/orders/not-an-id", staff.session.headers()), kOnlyNoStore);
    EXPECT_EQ(cacheControls("GET", "/api/v1/admin/audit?page=0", staff.session.headers()), kOnlyNoStore);
    EXPECT_EQ(cacheControls("DELETE", "/api/v1/products"), kOnlyNoStore);
}

TEST(CacheControl, PublicRoutesKeepTheirOwnCaching) {
    EXPECT_EQ(cacheControls("GET", "/api/v1/products"), std::vector<std::string>{"no-cache"});
    EXPECT_EQ(cacheControls("GET", "/sitemap.xml"), std::vector<std::string>{"public, max-age=3600"});
    EXPECT_EQ(cacheControls("GET", "/auth/v1/.well-known/jwks.json"), std::vector<std::string>{"public, max-age=600"});
    // Public, and answers with a moment's state: marked Store::Never at registration.
    EXPECT_EQ(cacheControls("GET", "/healthz"), kOnlyNoStore);
}
