#include "app/metrics.h"

#include "app/config.h"

#include "app/jobs.h"
#include "auth/password.h"
#include "db/database.h"
#include "db/query.h"
#include "http/api_error.h"
#include "http/metrics.h"
#include "http/router.h"
#include "http/server.h"

#include <Poco/Logger.h>
#include <Poco/Net/IPAddress.h>
#include <Poco/Timestamp.h>
#include <sodium.h>

#include <chrono>
#include <exception>
#include <optional>

namespace storefront::app {

namespace {

// Equal in constant time (over hashes of both, so the length of the token does not show either).
bool sameSecret(std::string_view given, std::string_view expected) {
    unsigned char a[crypto_generichash_BYTES], b[crypto_generichash_BYTES];
    crypto_generichash(a, sizeof a, reinterpret_cast<const unsigned char*>(given.data()), given.size(), nullptr, 0);
    crypto_generichash(b, sizeof b, reinterpret_cast<const unsigned char*>(expected.data()), expected.size(), nullptr, 0);
    return sodium_memcmp(a, b, sizeof a) == 0;
}

// The outbox's pending and failed counts (the status index answers both). nullopt when the
// database does not answer: the scrape still answers, with storefront_database_up 0.
struct OutboxCounts {
    std::int64_t pending = 0;
    std::int64_t failed = 0;
};

std::optional<OutboxCounts> outboxCounts(db::Database& database) {
    try {
        auto session = database.session();
        OutboxCounts counts;
        counts.pending = db::query(session, "SELECT COUNT(*) FROM mail_outbox WHERE status = 'pending'").count();
        counts.failed = db::query(session, "SELECT COUNT(*) FROM mail_outbox WHERE status = 'failed'").count();
        return counts;
    } catch (const std::exception& e) {
        Poco::Logger::get("storefront.metrics").warning("metrics: could not read the mail outbox: %s", std::string(e.what()));
        return std::nullopt;
    }
}

} // namespace

bool metricsAllowed(const std::string& peer, bool forwarded, std::string_view authorization, const std::string& token) {
    if (!token.empty()) {
        constexpr std::string_view kBearer = "Bearer ";
        if (authorization.size() > kBearer.size() && authorization.substr(0, kBearer.size()) == kBearer &&
            sameSecret(authorization.substr(kBearer.size()), token))
            return true;
    }
    return !forwarded && isLoopbackHost(peer);
}

std::string scrapeMetrics(const MetricsSources& sources) {
    http::Exposition out;
    if (const auto* server = sources.server ? sources.server() : nullptr) server->writeMetrics(out);

    if (sources.database) {
        const auto pool = sources.database->poolStats();
        out.family("storefront_db_pool_waits_total", "counter",
                   "Times a request found every database session taken and waited for one.");
        out.sample("storefront_db_pool_waits_total", {}, static_cast<double>(pool.waits));
        out.family("storefront_db_pool_wait_seconds_total", "counter", "Time spent in those waits.");
        out.sample("storefront_db_pool_wait_seconds_total", {}, static_cast<double>(pool.waitMicros) / 1e6);
        out.family("storefront_db_pool_wait_timeouts_total", "counter",
                   "Waits that passed STOREFRONT_DB_WAIT_MS (the request was answered 503 server_busy).");
        out.sample("storefront_db_pool_wait_timeouts_total", {}, static_cast<double>(pool.timeouts));
        out.family("storefront_db_pool_sessions", "gauge", "Database sessions: the pool's capacity and those in use now.");
        out.sample("storefront_db_pool_sessions", {{"state", "capacity"}}, pool.capacity);
        out.sample("storefront_db_pool_sessions", {{"state", "in_use"}}, pool.inUse);

        const auto outbox = outboxCounts(*sources.database);
        out.family("storefront_database_up", "gauge", "1 when the database answered this scrape's queries, else 0.");
        out.sample("storefront_database_up", {}, outbox ? 1 : 0);
        if (outbox) {
            out.family("storefront_mail_outbox_messages", "gauge",
                       "Mail in the outbox by status: pending (waiting or being retried) and failed (gave up after STOREFRONT_MAIL_MAX_ATTEMPTS).");
            out.sample("storefront_mail_outbox_messages", {{"status", "pending"}}, static_cast<double>(outbox->pending));
            out.sample("storefront_mail_outbox_messages", {{"status", "failed"}}, static_cast<double>(outbox->failed));
        }
    }

    if (sources.jobs) {
        const auto jobs = sources.jobs->status();
        out.family("storefront_job_last_success_timestamp_seconds", "gauge",
                   "When each background job last ran to the end (unix seconds; 0: not since the server started).");
        for (const auto& job : jobs)
            out.sample("storefront_job_last_success_timestamp_seconds", {{"job", job.name}}, static_cast<double>(job.lastSuccessSeconds));
        out.family("storefront_job_failures_total", "counter", "Runs of each background job that failed (each is logged).");
        for (const auto& job : jobs)
            out.sample("storefront_job_failures_total", {{"job", job.name}}, static_cast<double>(job.failures));
    }

    if (sources.hasher) {
        out.family("storefront_password_hash_queue_depth", "gauge", "Password hashes waiting for a hashing worker now.");
        out.sample("storefront_password_hash_queue_depth", {}, sources.hasher->queueDepth());
        out.family("storefront_password_hash_refusals_total", "counter",
                   "Sign-ins, sign-ups and password changes answered 429 because the hashing queue was full.");
        out.sample("storefront_password_hash_refusals_total", {}, static_cast<double>(sources.hasher->refusals()));
    }

    out.family("storefront_build_info", "gauge", "The version and commit of the running server (value 1).");
    out.sample("storefront_build_info", {{"version", buildVersion()}, {"commit", buildCommit()}}, 1);
    return out.take();
}

void metricsRoute(http::Router& router, MetricsSources sources, std::string token) {
    router.get("/metrics", http::Access::Anyone, [sources = std::move(sources), token = std::move(token)](http::Request& req, http::Response& res) {
        const bool forwarded = !req.header("X-Forwarded-For").empty() || !req.header("Forwarded").empty() ||
                               !req.header("X-Real-IP").empty();
        if (!metricsAllowed(req.raw().clientAddress().host().toString(), forwarded, req.header("Authorization"), token))
            throw http::ApiError::notFound("not_found", "No such endpoint.");
        res.text(200, "text/plain; version=0.0.4; charset=utf-8", scrapeMetrics(sources));
    }, http::Store::Never);
}

} // namespace storefront::app
