#include "api/harness.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {
void expectErrorShape(const HttpResult& r, int status, const std::string& code) {
    EXPECT_EQ(r.status, status) << r.body;
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.body;
    EXPECT_EQ(j["code"], code) << r.body;
    EXPECT_TRUE(j["message"].is_string());
    // The one error shape carries the request's id, the same as the X-Request-Id header.
    EXPECT_FALSE(r.header("x-request-id").empty());
    EXPECT_EQ(j["request_id"], r.header("x-request-id")) << r.body;
    EXPECT_EQ(r.body.find("SELECT"), std::string::npos);
    EXPECT_EQ(r.header("x-content-type-options"), "nosniff");
    EXPECT_NE(r.header("content-security-policy").find("frame-ancestors 'none'"), std::string::npos);
}
} // namespace

TEST(Errors, UnknownApiPathIsAJson404) { expectErrorShape(getJson("/api/v1/nothing-here"), 404, "not_found"); }

TEST(Errors, WrongMethodIs405WithAllow) {
    auto r = http(env().port, "DELETE", "/api/v1/products");
    expectErrorShape(r, 405, "method_not_allowed");
    EXPECT_NE(r.header("allow").find("GET"), std::string::npos);
    auto post = http(env().port, "POST", "/terms", "x", {{"Content-Type", "text/plain"}});
    expectErrorShape(post, 405, "method_not_allowed");
}

TEST(Errors, MalformedJsonIs400) {
    auto r = http(env().port, "POST", "/api/v1/contact", "{\"name\": ", {{"Content-Type", "application/json"}});
    expectErrorShape(r, 400, "malformed_json");
    auto array = http(env().port, "POST", "/api/v1/contact", "[1,2]", {{"Content-Type", "application/json"}});
    expectErrorShape(array, 400, "malformed_json");
}

TEST(Errors, WrongContentTypeIs415) {
    auto r = http(env().port, "POST", "/api/v1/contact", "name=x", {{"Content-Type", "application/x-www-form-urlencoded"}});
    expectErrorShape(r, 415, "unsupported_media_type");
    auto none = http(env().port, "POST", "/api/v1/contact", "{}");
    expectErrorShape(none, 415, "unsupported_media_type");
}

TEST(Errors, HugeBodyIs413) {
    // Just over the 64 KiB limit the test server uses (fits in socket buffers, so no reset races).
    std::string big(70 * 1024, 'x');
    auto r = http(env().port, "POST", "/api/v1/contact", big, {{"Content-Type", "application/json"}});
    expectErrorShape(r, 413, "payload_too_large");
    // The server is still fine afterwards.
    EXPECT_EQ(getJson("/healthz").status, 200);
}

TEST(Errors, AuthRoutesAreNotServedAsTheApp) {
    expectErrorShape(getJson("/auth/v1/unknown"), 404, "not_found");
    expectErrorShape(getJson("/functions/v1/unknown"), 404, "not_found");
}
