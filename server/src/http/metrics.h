#pragma once
// GET /metrics: the Prometheus text exposition format (version 0.0.4), written by hand (the
// format is small), and the HTTP server's own counters. The app wires the route and adds the
// other areas' figures (app/metrics.cpp); docs/operations.md lists every metric.
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace storefront::http {

// Appends a label value escaped as the format says: backslash, double quote and line feed become
// \\, \" and \n.
void appendLabelValue(std::string& out, std::string_view value);
// A sample value: integers exactly, others in the shortest form that reads back the same;
// +Inf, -Inf and NaN as the format spells them.
void appendMetricValue(std::string& out, double value);

// Writes families of samples: family() once per metric name (# HELP and # TYPE), then its samples.
class Exposition {
public:
    using Label = std::pair<std::string_view, std::string_view>;
    using Labels = std::initializer_list<Label>;

    void family(std::string_view name, std::string_view type, std::string_view help);
    void sample(std::string_view name, Labels labels, double value);
    void sample(std::string_view name, const std::vector<Label>& labels, double value);

    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void line(std::string_view name, const Label* begin, const Label* end, double value);
    std::string out_;
};

// The HTTP server's figures: requests by route, method and status; request durations by route; the
// requests being handled now. Route labels are the route table's patterns, "static" for the web
// app's files and pages (the router's fallback) and "unmatched" for everything else, so a label
// never holds a raw path. Recording is a few relaxed atomic increments in arrays sized once.
class HttpMetrics {
public:
    static constexpr int kFallback = -2;  // Request::routeIndex() when the fallback answered
    static constexpr int kUnmatched = -1; // no route ran (404, 405, a request refused before routing)
    // The upper bounds of the duration histogram's buckets, in seconds.
    static constexpr double kBuckets[] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    static constexpr std::size_t kBucketCount = std::size(kBuckets);

    explicit HttpMetrics(const std::vector<std::string>& routePatterns);
    ~HttpMetrics();

    void record(int routeIndex, std::string_view method, int status, std::int64_t micros);
    void requestStarted() { inFlight_.fetch_add(1, std::memory_order_relaxed); }
    void requestFinished() { inFlight_.fetch_sub(1, std::memory_order_relaxed); }
    // 503 server_busy answered by a request (the database pool or the SQLite write lock stayed busy).
    void databaseBusy() { databaseBusy_.fetch_add(1, std::memory_order_relaxed); }

    std::int64_t inFlight() const { return inFlight_.load(std::memory_order_relaxed); }
    std::uint64_t databaseBusyCount() const { return databaseBusy_.load(std::memory_order_relaxed); }

    // storefront_http_requests_total, storefront_http_request_duration_seconds,
    // storefront_http_requests_in_flight.
    void write(Exposition& out) const;

private:
    struct Slot;
    std::size_t slotOf(int routeIndex) const;
    std::vector<std::string> labels_;   // per slot: a route pattern (once, however many methods it has), then "static", "unmatched"
    std::vector<std::size_t> routeSlot_; // route index -> slot
    std::unique_ptr<Slot[]> slots_;
    std::atomic<std::int64_t> inFlight_{0};
    std::atomic<std::uint64_t> databaseBusy_{0};
    // Statuses outside the preallocated set (rare): counted under a lock.
    mutable std::mutex otherMutex_;
    std::map<std::tuple<std::size_t, std::string, int>, std::uint64_t> other_;
};

} // namespace storefront::http
