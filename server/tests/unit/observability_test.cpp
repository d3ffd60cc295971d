// The pieces behind request ids, the JSON log and /metrics: id validation, the exposition writer's
// escaping, the per-route counters, the log formatter's fields, who may read /metrics.
#include "app/metrics.h"
#include "common/buffered_log_channel.h"
#include "common/log_context.h"
#include "http/metrics.h"
#include "http/request_id.h"

#include <Poco/Message.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>
#include <vector>

TEST(RequestId, OnlyShortPlainIdsPass) {
    for (const std::string& id : std::vector<std::string>{"a", "0", "abc-DEF_123.x", std::string(64, 'z'), "550e8400-e29b-41d4-a716-446655440000"})
        EXPECT_TRUE(storefront::http::isPlainRequestId(id)) << id;
    for (const std::string& id : {std::string(), std::string(65, 'z'), std::string("a b"), std::string("a\nb"), std::string("a\"b"),
                                 std::string("a/b"), std::string("a;b"), std::string("ä"), std::string("a\0b", 3), std::string("{x}")})
        EXPECT_FALSE(storefront::http::isPlainRequestId(id)) << id;
}

TEST(RequestId, NewIdsAre32HexDigitsAndDoNotRepeat) {
    std::set<std::string> seen;
    for (int i = 0; i < 10000; ++i) {
        auto id = storefront::http::newRequestId();
        ASSERT_TRUE(std::regex_match(id, std::regex("[0-9a-f]{32}"))) << id;
        seen.insert(std::move(id));
    }
    EXPECT_EQ(seen.size(), 10000u);
}

TEST(RequestId, AnIncomingIdIsKeptOnlyFromATrustedProxyAndOnlyWhenPlain) {
    EXPECT_EQ(storefront::http::requestIdFor("edge-1", true), "edge-1");
    EXPECT_NE(storefront::http::requestIdFor("edge-1", false), "edge-1");
    EXPECT_NE(storefront::http::requestIdFor("edge 1", true), "edge 1");
    EXPECT_EQ(storefront::http::requestIdFor("", true).size(), 32u);
}

TEST(MetricsExposition, LabelValuesAreEscapedAsTheFormatSays) {
    std::string out;
    storefront::http::appendLabelValue(out, "a\\b\"c\nd/{slug}");
    EXPECT_EQ(out, "a\\\\b\\\"c\\nd/{slug}");
    storefront::http::Exposition e;
    e.family("x_total", "counter", "Help with a \\ backslash\nand a line feed, \"quotes\" kept.");
    e.sample("x_total", {{"route", "/p/{slug}"}, {"q", "say \"hi\""}}, 3);
    e.sample("x_total", {}, 0.25);
    EXPECT_EQ(e.text(),
              "# HELP x_total Help with a \\\\ backslash\\nand a line feed, \"quotes\" kept.\n"
              "# TYPE x_total counter\n"
              "x_total{route=\"/p/{slug}\",q=\"say \\\"hi\\\"\"} 3\n"
              "x_total 0.25\n");
}

TEST(MetricsExposition, ValuesAreExactIntegersOrShortestDecimalsAndTheSpecialNames) {
    auto text = [](double v) {
        std::string out;
        storefront::http::appendMetricValue(out, v);
        return out;
    };
    EXPECT_EQ(text(0), "0");
    EXPECT_EQ(text(1234567890123), "1234567890123");
    EXPECT_EQ(text(-2), "-2");
    EXPECT_EQ(text(0.005), "0.005");
    EXPECT_EQ(text(2.5), "2.5");
    EXPECT_EQ(text(1.0 / 0.0), "+Inf");
    EXPECT_EQ(text(-1.0 / 0.0), "-Inf");
    EXPECT_EQ(text(std::nan("")), "NaN");
}

TEST(HttpMetrics, CountsByRoutePatternMethodAndCodeWithOneHistogramPerPattern) {
    storefront::http::HttpMetrics metrics({"/api/v1/products", "/api/v1/products/{slug}", "/api/v1/products/{slug}"});
    metrics.record(1, "GET", 200, 3000);   // 3 ms
    metrics.record(2, "POST", 201, 30000); // the same pattern, another method: 30 ms
    metrics.record(1, "GET", 200, 3000000); // 3 s
    metrics.record(storefront::http::HttpMetrics::kFallback, "HEAD", 304, 100);
    metrics.record(storefront::http::HttpMetrics::kUnmatched, "BREW", 418, 100); // a status outside the preallocated set
    metrics.requestStarted();
    storefront::http::Exposition e;
    metrics.write(e);
    const auto& t = e.text();
    auto has = [&](const std::string& line) { return t.find(line + "\n") != std::string::npos; };
    EXPECT_TRUE(has(R"(storefront_http_requests_total{route="/api/v1/products/{slug}",method="GET",code="200"} 2)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_requests_total{route="/api/v1/products/{slug}",method="POST",code="201"} 1)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_requests_total{route="static",method="HEAD",code="304"} 1)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_requests_total{route="unmatched",method="other",code="418"} 1)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_request_duration_seconds_bucket{route="/api/v1/products/{slug}",le="0.005"} 1)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_request_duration_seconds_bucket{route="/api/v1/products/{slug}",le="0.05"} 2)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_request_duration_seconds_bucket{route="/api/v1/products/{slug}",le="2.5"} 2)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_request_duration_seconds_bucket{route="/api/v1/products/{slug}",le="5"} 3)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_request_duration_seconds_bucket{route="/api/v1/products/{slug}",le="+Inf"} 3)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_request_duration_seconds_sum{route="/api/v1/products/{slug}"} 3.033)")) << t;
    EXPECT_TRUE(has(R"(storefront_http_request_duration_seconds_count{route="/api/v1/products/{slug}"} 3)")) << t;
    EXPECT_TRUE(has("storefront_http_requests_in_flight 1")) << t;
    // A pattern with no requests has no series; a pattern appears once however many methods it has.
    EXPECT_EQ(t.find("route=\"/api/v1/products\""), std::string::npos) << t;
    EXPECT_EQ(t.find("# TYPE storefront_http_request_duration_seconds histogram"),
              t.rfind("# TYPE storefront_http_request_duration_seconds histogram"));
}

TEST(JsonLog, EveryLineIsOneObjectWithTheRequestIdAndTheAccessFields) {
    storefront::common::LogLineFormatter formatter(storefront::common::LogLineFormatter::Style::Json);
    Poco::Message plain("storefront", "started \"here\"\tnow\n\x01 caf\xc3\xa9 bad\xff", Poco::Message::PRIO_WARNING);
    std::string line;
    formatter.format(plain, line);
    auto json = nlohmann::json::parse(line);
    EXPECT_EQ(json["level"], "warning");
    EXPECT_EQ(json["logger"], "storefront");
    EXPECT_EQ(json["message"], "started \"here\"\tnow\n\x01 caf\xc3\xa9 bad\xef\xbf\xbd");
    EXPECT_TRUE(std::regex_match(json["time"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
    EXPECT_FALSE(json.contains("request_id"));
    EXPECT_EQ(line.find('\n'), std::string::npos);

    storefront::common::RequestIdScope id("req-42");
    storefront::common::AccessRecord record{"GET", "/api/v1/x\n", 404, 1234567, "203.0.113.7", "", 88};
    storefront::common::AccessRecordScope access(record);
    Poco::Message accessLine("http", "GET /api/v1/x 404", Poco::Message::PRIO_INFORMATION);
    line.clear();
    formatter.format(accessLine, line);
    json = nlohmann::json::parse(line);
    EXPECT_EQ(json["level"], "info");
    EXPECT_EQ(json["request_id"], "req-42");
    EXPECT_EQ(json["method"], "GET");
    EXPECT_EQ(json["path"], "/api/v1/x\n");
    EXPECT_EQ(json["status"], 404);
    EXPECT_DOUBLE_EQ(json["duration_ms"].get<double>(), 1234.567);
    EXPECT_EQ(json["client"], "203.0.113.7");
    EXPECT_TRUE(json["user_id"].is_null());
    EXPECT_EQ(json["bytes"], 88);
}

TEST(TextLog, ALineWrittenDuringARequestEndsWithItsId) {
    storefront::common::LogLineFormatter formatter;
    Poco::Message message("db", "slow query", Poco::Message::PRIO_WARNING);
    std::string outside;
    formatter.format(message, outside);
    EXPECT_TRUE(outside.ends_with(" Warning db: slow query")) << outside;
    {
        storefront::common::RequestIdScope id("req-7");
        std::string inside;
        formatter.format(message, inside);
        EXPECT_TRUE(inside.ends_with(" Warning db: slow query request_id=req-7")) << inside;
    }
    EXPECT_EQ(storefront::common::currentRequestId(), "");
}

TEST(MetricsAccess, LoopbackWithoutAProxyOrTheBearerTokenAndNothingElse) {
    using storefront::app::metricsAllowed;
    EXPECT_TRUE(metricsAllowed("127.0.0.1", false, "", ""));
    EXPECT_TRUE(metricsAllowed("127.3.2.1", false, "", ""));
    EXPECT_TRUE(metricsAllowed("::1", false, "", ""));
    EXPECT_TRUE(metricsAllowed("::ffff:127.0.0.1", false, "", ""));
    EXPECT_FALSE(metricsAllowed("127.0.0.1", true, "", ""));   // through a proxy on the same host
    EXPECT_FALSE(metricsAllowed("203.0.113.5", false, "", ""));
    EXPECT_FALSE(metricsAllowed("::ffff:203.0.113.5", false, "", ""));
    EXPECT_FALSE(metricsAllowed("not an address", false, "", ""));
    EXPECT_FALSE(metricsAllowed("203.0.113.5", false, "Bearer ", ""));      // no token set: no way in
    const std::string token = "0123456789abcdef-token";
    EXPECT_TRUE(metricsAllowed("203.0.113.5", true, "Bearer " + token, token));
    EXPECT_FALSE(metricsAllowed("203.0.113.5", true, "Bearer " + token + " ", token));
    EXPECT_FALSE(metricsAllowed("203.0.113.5", true, "bearer " + token, token));
    EXPECT_FALSE(metricsAllowed("203.0.113.5", true, token, token));
    EXPECT_FALSE(metricsAllowed("203.0.113.5", true, "Bearer 0123456789abcdef-tokem", token));
    EXPECT_TRUE(metricsAllowed("127.0.0.1", false, "Bearer wrong", token)); // locally the token is not needed
}
