#pragma once
// GET /metrics (Prometheus text format 0.0.4): the HTTP server's counters (http/metrics.h) and the
// figures of the other parts, gathered at scrape time. Answered only to a loopback peer that came
// through no proxy, or to `Authorization: Bearer <STOREFRONT_METRICS_TOKEN>`; to anyone else it is
// a 404 like any unknown path. docs/operations.md lists the metrics.
#include <functional>
#include <string>
#include <string_view>

namespace storefront::http {
class Router;
class Server;
class Exposition;
class Request;
} // namespace storefront::http
namespace storefront::db {
class Database;
}
namespace storefront::auth {
class PasswordHasher;
}

namespace storefront::app {

class Jobs;

// The version and commit this binary was built from (build_info: CMake).
std::string_view buildVersion();
std::string_view buildCommit();

// Whether a request may read /metrics: `peer` is the socket's address (never a forwarded one);
// `forwarded` says the request carries a forwarding header (X-Forwarded-For, Forwarded,
// X-Real-IP), i.e. it came through a proxy, so a loopback peer is not enough; `authorization`
// is the Authorization header, compared in constant time with "Bearer <token>" when a token is set.
bool metricsAllowed(const std::string& peer, bool forwarded, std::string_view authorization, const std::string& token);

// What the scrape reads. `server` may be null until the server has started.
struct MetricsSources {
    std::function<const http::Server*()> server;
    db::Database* database = nullptr;
    auth::PasswordHasher* hasher = nullptr;
    const Jobs* jobs = nullptr;
};

// Writes every metric of the server in the exposition format.
std::string scrapeMetrics(const MetricsSources& sources);

// Adds GET /metrics.
void metricsRoute(http::Router& router, MetricsSources sources, std::string token);

} // namespace storefront::app
