// GET /metrics read by a real Prometheus parser (Debian's python3-prometheus-client, in a child
// process), its access rule, and request ids: on every answer, in every error body, on the log
// lines a request writes; kept from a trusted proxy only when plain.
#include "api/auth_support.h"
#include "api/harness.h"

#include "common/buffered_log_channel.h"

#include <Poco/AutoPtr.h>
#include <Poco/Channel.h>
#include <Poco/Logger.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Pipe.h>
#include <Poco/PipeStream.h>
#include <Poco/Process.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <set>
#include <sstream>

using namespace testing_support;

namespace {

// The parser's view of a scrape: family name -> type, and every sample.
struct Sample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};
struct Scrape {
    std::map<std::string, std::string> families;
    std::vector<Sample> samples;

    // The value of the sample with this name and exactly these labels (0 when absent).
    double value(const std::string& name, const std::map<std::string, std::string>& labels = {}) const {
        for (const auto& s : samples)
            if (s.name == name && s.labels == labels) return s.value;
        return 0;
    }
    bool has(const std::string& name) const {
        return std::any_of(samples.begin(), samples.end(), [&](const Sample& s) { return s.name == name; });
    }
};

const char* kParserScript = R"(import json, sys
from prometheus_client.parser import text_string_to_metric_families
families, samples = {}, []
for family in text_string_to_metric_families(open(sys.argv[1], encoding="utf-8").read()):
    families[family.name] = family.type
    for s in family.samples:
        samples.append({"name": s.name, "labels": s.labels, "value": s.value})
print(json.dumps({"families": families, "samples": samples}))
)";

// Parses an exposition with prometheus_client; fails the test when the parser refuses it.
Scrape parseExposition(const std::string& text) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(::testing::TempDir()) / ("metrics-" + storefront::db::newId());
    fs::create_directories(dir);
    std::ofstream(dir / "parse.py") << kParserScript;
    std::ofstream(dir / "metrics.txt", std::ios::binary) << text;
    Poco::Pipe outPipe, errPipe;
    auto handle = Poco::Process::launch("/usr/bin/python3", {(dir / "parse.py").string(), (dir / "metrics.txt").string()},
                                        nullptr, &outPipe, &errPipe);
    Poco::PipeInputStream out(outPipe), err(errPipe);
    auto errors = std::async(std::launch::async, [&err] {
        std::string text;
        Poco::StreamCopier::copyToString(err, text);
        return text;
    });
    std::string json;
    Poco::StreamCopier::copyToString(out, json);
    const int code = handle.wait();
    const std::string stderrText = errors.get();
    fs::remove_all(dir);
    if (code != 0) throw std::runtime_error("prometheus_client refused the exposition: " + stderrText + "\n" + text);
    auto parsed = nlohmann::json::parse(json);
    Scrape scrape;
    for (const auto& [name, type] : parsed["families"].items()) scrape.families[name] = type.get<std::string>();
    for (const auto& s : parsed["samples"]) {
        Sample sample{s["name"], {}, s["value"].get<double>()};
        for (const auto& [k, v] : s["labels"].items()) sample.labels[k] = v.get<std::string>();
        scrape.samples.push_back(std::move(sample));
    }
    return scrape;
}

Scrape scrape(int port = 0) {
    auto r = http(port ? port : env().port, "GET", "/metrics");
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    return parseExposition(r.body);
}

const std::string kProductRoute = "/api/v1/products/{slug}";

std::string someProductSlug() {
    auto list = getJson("/api/v1/products");
    EXPECT_EQ(list.status, 200) << list.body;
    auto json = list.json();
    const auto& items = json.is_array() ? json : json["products"];
    EXPECT_FALSE(items.empty()) << list.body;
    return items.at(0)["slug"].get<std::string>();
}

// Collects the lines the "http" logger writes, formatted as the server's text log, while it lives.
class LogCapture {
public:
    class Channel : public Poco::Channel {
    public:
        void log(const Poco::Message& message) override {
            std::string line;
            formatter_.format(message, line);
            std::lock_guard lock(mutex_);
            lines_.push_back(std::move(line));
        }
        std::vector<std::string> lines() {
            std::lock_guard lock(mutex_);
            return lines_;
        }

    private:
        storefront::common::LogLineFormatter formatter_;
        std::mutex mutex_;
        std::vector<std::string> lines_;
    };

    LogCapture() : logger_(Poco::Logger::get("http")), previousLevel_(logger_.getLevel()) {
        previous_ = logger_.getChannel();
        channel_ = new Channel;
        logger_.setChannel(channel_);
        logger_.setLevel(Poco::Message::PRIO_INFORMATION);
    }
    ~LogCapture() {
        logger_.setChannel(previous_);
        logger_.setLevel(previousLevel_);
    }

    // The first captured line containing every one of `parts`, waiting for the server to write it
    // (the access line follows the answer).
    std::string lineWith(const std::vector<std::string>& parts) {
        std::string found;
        eventually([&] {
            for (const auto& line : channel_->lines()) {
                if (std::all_of(parts.begin(), parts.end(), [&](const std::string& p) { return line.find(p) != std::string::npos; })) {
                    found = line;
                    return true;
                }
            }
            return false;
        }, 5);
        return found;
    }

private:
    Poco::Logger& logger_;
    int previousLevel_;
    Poco::Channel::Ptr previous_;
    Poco::AutoPtr<Channel> channel_;
};

bool plainGeneratedId(const std::string& id) { return std::regex_match(id, std::regex("[0-9a-f]{32}")); }

} // namespace

TEST(Metrics, TheScrapeParsesWithPrometheusOwnParserAndHasEveryMetric) {
    get("/api/v1/products"); // at least one request counted before the scrape
    // The server counts a request as its answer leaves, so the client can ask again a moment before.
    const std::map<std::string, std::string> products = {{"route", "/api/v1/products"}};
    auto s = scrape();
    eventually([&] {
        s = scrape();
        return s.value("storefront_http_request_duration_seconds_count", products) >= 1;
    });
    const std::map<std::string, std::string> expected = {
        {"storefront_http_requests", "counter"},
        {"storefront_http_request_duration_seconds", "histogram"},
        {"storefront_http_requests_in_flight", "gauge"},
        {"storefront_http_busy_refusals", "counter"},
        {"storefront_db_pool_waits", "counter"},
        {"storefront_db_pool_wait_seconds", "counter"},
        {"storefront_db_pool_wait_timeouts", "counter"},
        {"storefront_db_pool_sessions", "gauge"},
        {"storefront_database_up", "gauge"},
        {"storefront_mail_outbox_messages", "gauge"},
        {"storefront_job_last_success_timestamp_seconds", "gauge"},
        {"storefront_job_failures", "counter"},
        {"storefront_password_hash_queue_depth", "gauge"},
        {"storefront_password_hash_refusals", "counter"},
        {"storefront_build_info", "gauge"},
    };
    for (const auto& [name, type] : expected) {
        ASSERT_TRUE(s.families.contains(name)) << name;
        EXPECT_EQ(s.families.at(name), type) << name;
    }
    // The scrape itself is in flight while it is written.
    EXPECT_GE(s.value("storefront_http_requests_in_flight"), 1);
    EXPECT_TRUE(s.has("storefront_http_busy_refusals_total"));
    EXPECT_EQ(s.value("storefront_database_up"), 1);
    EXPECT_TRUE(s.has("storefront_mail_outbox_messages"));
    // Every background job of the server has its series (mail delivery runs every round).
    bool mailJob = false;
    for (const auto& sample : s.samples)
        mailJob |= sample.name == "storefront_job_last_success_timestamp_seconds" && sample.labels.at("job") == "mail";
    EXPECT_TRUE(mailJob);
    bool build = false;
    for (const auto& sample : s.samples)
        build |= sample.name == "storefront_build_info" && sample.value == 1 && !sample.labels.at("version").empty() &&
                 !sample.labels.at("commit").empty();
    EXPECT_TRUE(build);
    // A histogram for the products list, its +Inf bucket equal to its count.
    EXPECT_GE(s.value("storefront_http_request_duration_seconds_count", products), 1);
    EXPECT_EQ(s.value("storefront_http_request_duration_seconds_bucket", {{"route", "/api/v1/products"}, {"le", "+Inf"}}),
              s.value("storefront_http_request_duration_seconds_count", products));
}

TEST(Metrics, RequestCountsMoveByExactlyTheRequestsMadeUnderTheRoutePattern) {
    const std::string slug = someProductSlug();
    const std::map<std::string, std::string> ok = {{"route", kProductRoute}, {"method", "GET"}, {"code", "200"}};
    const std::map<std::string, std::string> missing = {{"route", kProductRoute}, {"method", "GET"}, {"code", "404"}};
    const auto before = scrape();
    const std::string unknownSlug = unique("no-such-product");
    const std::string unmatchedPath = "/api/v1/" + unique("nothing-here");
    constexpr int n = 7;
    for (int i = 0; i < n; ++i) ASSERT_EQ(get("/api/v1/products/" + slug).status, 200);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(get("/api/v1/products/" + unknownSlug).status, 404);
    ASSERT_EQ(get(unmatchedPath).status, 404);
    ASSERT_EQ(get("/assets/app-3f2a1b.js").status, 200);
    const std::map<std::string, std::string> unmatched = {{"route", "unmatched"}, {"method", "GET"}, {"code", "404"}};
    const std::map<std::string, std::string> statics = {{"route", "static"}, {"method", "GET"}, {"code", "200"}};
    // The server counts a request as its answer leaves, so the client can scrape a moment before
    // the last one is in.
    auto after = scrape();
    eventually([&] {
        after = scrape();
        return after.value("storefront_http_requests_total", statics) > before.value("storefront_http_requests_total", statics);
    });
    EXPECT_EQ(after.value("storefront_http_requests_total", ok) - before.value("storefront_http_requests_total", ok), n);
    EXPECT_EQ(after.value("storefront_http_requests_total", missing) - before.value("storefront_http_requests_total", missing), 3);
    EXPECT_EQ(after.value("storefront_http_requests_total", unmatched) - before.value("storefront_http_requests_total", unmatched), 1);
    EXPECT_EQ(after.value("storefront_http_requests_total", statics) - before.value("storefront_http_requests_total", statics), 1);
    const std::map<std::string, std::string> route = {{"route", kProductRoute}};
    EXPECT_EQ(after.value("storefront_http_request_duration_seconds_count", route) -
                  before.value("storefront_http_request_duration_seconds_count", route),
              n + 3);
    // No label anywhere holds a raw path.
    for (const auto& sample : after.samples)
        for (const auto& [label, value] : sample.labels) {
            EXPECT_EQ(value.find(slug), std::string::npos) << sample.name << " " << label << "=" << value;
            EXPECT_EQ(value.find("nothing-here"), std::string::npos) << sample.name << " " << label << "=" << value;
            EXPECT_EQ(value.find("app-3f2a1b"), std::string::npos) << sample.name << " " << label << "=" << value;
        }
}

TEST(Metrics, AForwardedOrRemoteRequestWithoutTheTokenGetsA404AndWithItTheMetrics) {
    // The test servers trust 127.0.0.1 as a proxy: a request through it is not a local one.
    auto forwarded = http(env().port, "GET", "/metrics", "", {{"X-Forwarded-For", "203.0.113.9"}});
    EXPECT_EQ(forwarded.status, 404) << forwarded.body;
    EXPECT_EQ(forwarded.json()["code"], "not_found");
    EXPECT_EQ(forwarded.body.find("storefront_"), std::string::npos);
    EXPECT_EQ(http(env().port, "GET", "/metrics", "", {{"X-Real-IP", "203.0.113.9"}}).status, 404);
    EXPECT_EQ(http(env().port, "GET", "/metrics", "", {{"Forwarded", "for=203.0.113.9"}}).status, 404);
    // Without a token set, no Authorization header opens it.
    EXPECT_EQ(http(env().port, "GET", "/metrics", "", {{"X-Forwarded-For", "203.0.113.9"}, {"Authorization", "Bearer "}}).status, 404);

    const std::string token = "metrics-token-" + storefront::db::newId();
    const int port = serverWith({{"STOREFRONT_METRICS_TOKEN", token}});
    auto remote = [&](const std::string& authorization) {
        Headers h{{"X-Forwarded-For", "203.0.113.9"}};
        if (!authorization.empty()) h["Authorization"] = authorization;
        return http(port, "GET", "/metrics", "", h);
    };
    EXPECT_EQ(remote("").status, 404);
    EXPECT_EQ(remote("Bearer " + token + "x").status, 404);
    EXPECT_EQ(remote("Bearer " + token.substr(0, token.size() - 1)).status, 404);
    EXPECT_EQ(remote("Basic " + token).status, 404);
    EXPECT_EQ(remote(token).status, 404);
    auto allowed = remote("Bearer " + token);
    ASSERT_EQ(allowed.status, 200) << allowed.body;
    EXPECT_NO_THROW(parseExposition(allowed.body));
    // Locally, with no proxy in between, no token is needed.
    EXPECT_EQ(http(port, "GET", "/metrics").status, 200);
}

TEST(RequestIds, EveryAnswerCarriesOneAndEveryErrorBodyTheSame) {
    for (const auto& path : {std::string("/api/v1/products"), std::string("/assets/app-3f2a1b.js"), std::string("/"),
                             std::string("/healthz")}) {
        auto r = get(path);
        EXPECT_EQ(r.status, 200) << path;
        EXPECT_TRUE(plainGeneratedId(r.header("x-request-id"))) << path << ": " << r.header("x-request-id");
    }
    // Errors: unknown API path, unknown product, wrong method, malformed JSON, a page that does not exist.
    std::vector<HttpResult> errors = {get("/api/v1/" + unique("nothing")), get("/api/v1/products/" + unique("none")),
                                      http(env().port, "DELETE", "/api/v1/products"),
                                      http(env().port, "POST", "/auth/v1/token?grant_type=password", "{",
                                           {{"Content-Type", "application/json"}})};
    std::set<std::string> ids;
    for (const auto& r : errors) {
        EXPECT_GE(r.status, 400) << r.body;
        const auto id = r.header("x-request-id");
        EXPECT_TRUE(plainGeneratedId(id)) << id;
        EXPECT_EQ(r.json()["request_id"], id) << r.body;
        ids.insert(id);
    }
    EXPECT_EQ(ids.size(), errors.size()); // a new one each time
    auto page404 = get("/no-such-page/" + unique("x") + ".png");
    EXPECT_EQ(page404.status, 404);
    EXPECT_TRUE(plainGeneratedId(page404.header("x-request-id")));
    // A request the server cannot even read: still an id, in the header and the body.
    auto unreadable = rawHttp(env().port, "NONSENSE\r\n\r\n");
    EXPECT_EQ(unreadable.status, 400) << unreadable.body;
    EXPECT_TRUE(plainGeneratedId(unreadable.header("x-request-id"))) << unreadable.body;
    EXPECT_EQ(nlohmann::json::parse(unreadable.body)["request_id"], unreadable.header("x-request-id"));
}

TEST(RequestIds, ATrustedProxysPlainIdIsKeptAndAnythingElseReplaced) {
    // env() trusts 127.0.0.1 (the test client) as its proxy.
    auto kept = get("/api/v1/products", {{"X-Request-Id", "edge-7f3a.b_c-9"}});
    EXPECT_EQ(kept.header("x-request-id"), "edge-7f3a.b_c-9");
    auto keptError = get("/api/v1/" + unique("nothing"), {{"X-Request-Id", "edge-err-1"}});
    EXPECT_EQ(keptError.header("x-request-id"), "edge-err-1");
    EXPECT_EQ(keptError.json()["request_id"], "edge-err-1");
    const std::string longest(64, 'a');
    EXPECT_EQ(get("/healthz", {{"X-Request-Id", longest}}).header("x-request-id"), longest);
    for (const std::string& bad : {std::string(65, 'a'), std::string("has space"), std::string("semi;colon"),
                                  std::string("quote\"d"), std::string("<script>"), std::string("ü-umlaut")}) {
        auto r = get("/healthz", {{"X-Request-Id", bad}});
        EXPECT_TRUE(plainGeneratedId(r.header("x-request-id"))) << bad << " -> " << r.header("x-request-id");
    }
    // A server that does not trust the peer ignores the header.
    const int untrusting = serverWith({{"STOREFRONT_TRUSTED_PROXIES", "192.0.2.1"}});
    auto dropped = http(untrusting, "GET", "/api/v1/products", "", {{"X-Request-Id", "edge-7f3a"}});
    EXPECT_EQ(dropped.status, 200);
    EXPECT_TRUE(plainGeneratedId(dropped.header("x-request-id"))) << dropped.header("x-request-id");
}

TEST(RequestIds, TheAccessLineCarriesTheIdClientUserAndSize) {
    LogCapture capture;
    const std::string ip = newClientIp();
    auto account = createUser("access-log");
    auto session = signIn(account, ip);
    Headers headers = as(ip, session.accessToken);
    headers["X-Request-Id"] = "access-line-" + storefront::db::newId().substr(0, 8);
    auto r = get("/auth/v1/user", headers);
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string line = capture.lineWith({"request_id=" + headers["X-Request-Id"]});
    ASSERT_FALSE(line.empty());
    EXPECT_NE(line.find("GET /auth/v1/user 200 "), std::string::npos) << line;
    EXPECT_NE(line.find(" client=" + ip + " "), std::string::npos) << line;
    EXPECT_NE(line.find(" user=" + account.id + " "), std::string::npos) << line;
    EXPECT_NE(line.find(" bytes=" + std::to_string(r.body.size()) + " "), std::string::npos) << line;
    EXPECT_TRUE(line.ends_with(" request_id=" + headers["X-Request-Id"])) << line;

    // Anonymous: user "-"; the generated id is the one the client saw.
    auto anonymous = get("/api/v1/products", as(ip));
    const std::string anonymousLine = capture.lineWith({"request_id=" + anonymous.header("x-request-id")});
    EXPECT_NE(anonymousLine.find(" user=- "), std::string::npos) << anonymousLine;

    // Another line logged while handling a request carries its id too (the unreadable request's note).
    auto unreadable = rawHttp(env().port, "NONSENSE\r\n\r\n");
    const std::string note = capture.lineWith({"unreadable request", "request_id=" + unreadable.header("x-request-id")});
    EXPECT_FALSE(note.empty());
}

// The real executable with STOREFRONT_LOG_FORMAT=json: every line on standard error is one JSON
// object, nothing on standard output, and the access line has its fields.
TEST(RequestIds, JsonLogFormatWritesOneObjectPerLineOnStandardError) {
    const int port = [] {
        Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
        return s.address().port();
    }();
    const std::string dir = ::testing::TempDir() + "/jsonlog-" + storefront::db::newId();
    Poco::Process::Env environment = {
        {"STOREFRONT_ENV", "development"},
        {"STOREFRONT_PORT", std::to_string(port)},
        {"STOREFRONT_DATA_DIR", dir},
        {"STOREFRONT_WEB_DIR", dir + "/no-web"},
        {"STOREFRONT_LOG_FORMAT", "json"},
        {"STOREFRONT_TRUSTED_PROXIES", "127.0.0.1"},
    };
    Poco::Pipe outPipe, errPipe;
    auto handle = Poco::Process::launch(STOREFRONT_BINARY, {}, ::testing::TempDir(), nullptr, &outPipe, &errPipe, environment);
    Poco::PipeInputStream out(outPipe), err(errPipe);
    auto stdoutText = std::async(std::launch::async, [&out] {
        std::string text;
        Poco::StreamCopier::copyToString(out, text);
        return text;
    });
    auto stderrText = std::async(std::launch::async, [&err] {
        std::string text;
        Poco::StreamCopier::copyToString(err, text);
        return text;
    });
    const bool up = eventually([&] {
        try {
            return http(port, "GET", "/healthz").status == 200;
        } catch (const std::exception&) {
            return false;
        }
    }, 20);
    HttpResult r;
    if (up) r = http(port, "GET", "/api/v1/nothing%01here", "", {{"X-Request-Id", "json-line-1"}, {"X-Forwarded-For", "198.51.100.4"}});
    Poco::Process::requestTermination(handle.id());
    handle.wait();
    const std::string errText = stderrText.get();
    const std::string outText = stdoutText.get();
    std::filesystem::remove_all(dir);
    ASSERT_TRUE(up) << errText;
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(outText, "");
    std::istringstream lines(errText);
    std::string line;
    int count = 0;
    nlohmann::json access;
    while (std::getline(lines, line)) {
        auto json = nlohmann::json::parse(line, nullptr, false);
        ASSERT_TRUE(json.is_object()) << line;
        for (const char* key : {"time", "level", "logger", "message"}) EXPECT_TRUE(json[key].is_string()) << key << ": " << line;
        if (json.value("request_id", "") == "json-line-1") access = json;
        ++count;
    }
    EXPECT_GE(count, 3); // start-up lines, the access lines, the shutdown lines
    ASSERT_TRUE(access.is_object()) << errText;
    EXPECT_EQ(access["logger"], "http");
    EXPECT_EQ(access["level"], "info");
    EXPECT_EQ(access["method"], "GET");
    EXPECT_EQ(access["path"], "/api/v1/nothing\x01here");
    EXPECT_EQ(access["status"], 404);
    EXPECT_TRUE(access["duration_ms"].is_number()) << access.dump();
    EXPECT_EQ(access["client"], "198.51.100.4");
    EXPECT_TRUE(access["user_id"].is_null());
    EXPECT_EQ(access["bytes"], r.body.size());
}
