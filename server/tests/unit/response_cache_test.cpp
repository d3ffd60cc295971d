#include "http/response_cache.h"

#include <gtest/gtest.h>

#include <thread>

using storefront::http::Response;
using storefront::http::ResponseCache;

TEST(ResponseCache, ReusesA200UntilItExpires) {
    ResponseCache cache(std::chrono::milliseconds(80));
    int renders = 0;
    auto render = [&](Response& r) {
        ++renders;
        r.json(200, {{"n", renders}});
    };
    Response a, b, c;
    cache.serve("k", a, render);
    cache.serve("k", b, render);
    EXPECT_EQ(renders, 1);
    EXPECT_EQ(a.body, b.body);
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    cache.serve("k", c, render);
    EXPECT_EQ(renders, 2);
    EXPECT_NE(a.body, c.body);
}

TEST(ResponseCache, NeverKeepsMissesAndClearDropsEverything) {
    ResponseCache cache(std::chrono::seconds(60));
    int renders = 0;
    auto missing = [&](Response& r) {
        ++renders;
        r.json(404, {{"code", "product_not_found"}});
    };
    Response a, b;
    cache.serve("x", a, missing);
    cache.serve("x", b, missing);
    EXPECT_EQ(renders, 2);
    auto ok = [&](Response& r) {
        ++renders;
        r.json(200, nlohmann::json::object());
    };
    Response c, d, e;
    cache.serve("y", c, ok);
    cache.clear();
    cache.serve("y", d, ok);
    EXPECT_EQ(renders, 4);
}

TEST(ResponseCache, ZeroTtlDisablesIt) {
    ResponseCache cache(std::chrono::milliseconds(0));
    int renders = 0;
    Response a, b;
    auto ok = [&](Response& r) {
        ++renders;
        r.json(200, nlohmann::json::object());
    };
    cache.serve("k", a, ok);
    cache.serve("k", b, ok);
    EXPECT_EQ(renders, 2);
}
