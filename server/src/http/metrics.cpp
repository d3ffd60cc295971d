#include "http/metrics.h"

#include <array>
#include <charconv>
#include <cmath>

namespace storefront::http {

namespace {

constexpr std::array<std::string_view, 8> kMethods = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"};
constexpr std::array<int, 32> kCodes = {200, 201, 202, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405,
                                        406, 408, 409, 410, 412, 413, 415, 416, 422, 429, 431, 500, 501, 502, 503, 504};
constexpr std::size_t kMethodCount = kMethods.size();
constexpr std::size_t kCodeCount = kCodes.size();

// Status -> its index in kCodes, or -1.
constexpr auto kCodeIndex = [] {
    std::array<signed char, 600> index{};
    for (auto& i : index) i = -1;
    for (std::size_t i = 0; i < kCodes.size(); ++i) index[static_cast<std::size_t>(kCodes[i])] = static_cast<signed char>(i);
    return index;
}();

std::size_t methodIndex(std::string_view method) {
    for (std::size_t i = 0; i + 1 < kMethods.size(); ++i)
        if (kMethods[i] == method) return i;
    return kMethods.size() - 1;
}

// The bucket bounds in whole microseconds.
constexpr auto kBucketMicros = [] {
    std::array<std::int64_t, HttpMetrics::kBucketCount> micros{};
    for (std::size_t i = 0; i < micros.size(); ++i)
        micros[i] = static_cast<std::int64_t>(HttpMetrics::kBuckets[i] * 1000000 + 0.5);
    return micros;
}();

void appendExpositionEscaped(std::string& out, std::string_view text, bool quotes) {
    for (const char c : text) {
        if (c == '\\') out.append("\\\\");
        else if (c == '\n') out.append("\\n");
        else if (c == '"' && quotes) out.append("\\\"");
        else out.push_back(c);
    }
}

} // namespace

void appendLabelValue(std::string& out, std::string_view value) { appendExpositionEscaped(out, value, true); }

void appendMetricValue(std::string& out, double value) {
    if (std::isnan(value)) {
        out.append("NaN");
        return;
    }
    if (std::isinf(value)) {
        out.append(value > 0 ? "+Inf" : "-Inf");
        return;
    }
    char digits[32];
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0) {
        auto [end, ec] = std::to_chars(digits, digits + sizeof digits, static_cast<std::int64_t>(value));
        out.append(digits, end);
        return;
    }
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, end);
}

void Exposition::family(std::string_view name, std::string_view type, std::string_view help) {
    out_.append("# HELP ").append(name).append(1, ' ');
    appendExpositionEscaped(out_, help, false);
    out_.append("\n# TYPE ").append(name).append(1, ' ').append(type).append(1, '\n');
}

void Exposition::sample(std::string_view name, Labels labels, double value) {
    line(name, labels.begin(), labels.end(), value);
}

void Exposition::sample(std::string_view name, const std::vector<Label>& labels, double value) {
    line(name, labels.data(), labels.data() + labels.size(), value);
}

void Exposition::line(std::string_view name, const Label* begin, const Label* end, double value) {
    out_.append(name);
    if (begin != end) {
        out_.append(1, '{');
        for (auto* label = begin; label != end; ++label) {
            if (label != begin) out_.append(1, ',');
            out_.append(label->first).append("=\"");
            appendLabelValue(out_, label->second);
            out_.append(1, '"');
        }
        out_.append(1, '}');
    }
    out_.append(1, ' ');
    appendMetricValue(out_, value);
    out_.append(1, '\n');
}

struct HttpMetrics::Slot {
    std::atomic<std::uint64_t> counts[kMethodCount][kCodeCount]{};
    std::atomic<std::uint64_t> buckets[kBucketCount + 1]{}; // per bucket (not cumulative), then over the last
    std::atomic<std::uint64_t> sumMicros{0};
};

HttpMetrics::HttpMetrics(const std::vector<std::string>& routePatterns) {
    // One slot per pattern: GET and POST on one path share its duration histogram.
    std::map<std::string_view, std::size_t> seen;
    for (const auto& pattern : routePatterns) {
        auto [it, added] = seen.emplace(pattern, labels_.size());
        if (added) labels_.push_back(pattern);
        routeSlot_.push_back(it->second);
    }
    labels_.emplace_back("static");
    labels_.emplace_back("unmatched");
    slots_ = std::make_unique<Slot[]>(labels_.size());
}

HttpMetrics::~HttpMetrics() = default;

std::size_t HttpMetrics::slotOf(int routeIndex) const {
    if (routeIndex >= 0 && static_cast<std::size_t>(routeIndex) < routeSlot_.size()) return routeSlot_[static_cast<std::size_t>(routeIndex)];
    if (routeIndex == kFallback) return labels_.size() - 2;
    return labels_.size() - 1;
}

void HttpMetrics::record(int routeIndex, std::string_view method, int status, std::int64_t micros) {
    const std::size_t slotIndex = slotOf(routeIndex);
    auto& slot = slots_[slotIndex];
    const std::size_t m = methodIndex(method);
    const int code = status >= 0 && status < static_cast<int>(kCodeIndex.size()) ? kCodeIndex[static_cast<std::size_t>(status)] : -1;
    if (code >= 0) {
        slot.counts[m][static_cast<std::size_t>(code)].fetch_add(1, std::memory_order_relaxed);
    } else {
        std::lock_guard lock(otherMutex_);
        ++other_[{slotIndex, std::string(kMethods[m]), status}];
    }
    if (micros < 0) micros = 0;
    std::size_t bucket = 0;
    while (bucket < kBucketCount && micros > kBucketMicros[bucket]) ++bucket;
    slot.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
    slot.sumMicros.fetch_add(static_cast<std::uint64_t>(micros), std::memory_order_relaxed);
}

void HttpMetrics::write(Exposition& out) const {
    out.family("storefront_http_requests_total", "counter",
               "HTTP requests answered, by route pattern (\"static\": web app files and pages; \"unmatched\": no route), method and status code.");
    char codeText[8];
    for (std::size_t s = 0; s < labels_.size(); ++s) {
        for (std::size_t m = 0; m < kMethodCount; ++m) {
            for (std::size_t c = 0; c < kCodeCount; ++c) {
                const auto n = slots_[s].counts[m][c].load(std::memory_order_relaxed);
                if (n == 0) continue;
                auto [end, ec] = std::to_chars(codeText, codeText + sizeof codeText, kCodes[c]);
                out.sample("storefront_http_requests_total",
                           {{"route", labels_[s]}, {"method", kMethods[m]}, {"code", std::string_view(codeText, end - codeText)}},
                           static_cast<double>(n));
            }
        }
    }
    {
        std::lock_guard lock(otherMutex_);
        for (const auto& [key, n] : other_) {
            const auto& [s, method, status] = key;
            const auto code = std::to_string(status);
            out.sample("storefront_http_requests_total", {{"route", labels_[s]}, {"method", method}, {"code", code}},
                       static_cast<double>(n));
        }
    }

    out.family("storefront_http_request_duration_seconds", "histogram",
               "Time from reading a request's headers to having sent its answer, by route pattern.");
    std::string bound;
    for (std::size_t s = 0; s < labels_.size(); ++s) {
        std::uint64_t perBucket[kBucketCount + 1];
        std::uint64_t total = 0;
        for (std::size_t b = 0; b <= kBucketCount; ++b) total += perBucket[b] = slots_[s].buckets[b].load(std::memory_order_relaxed);
        if (total == 0) continue;
        std::uint64_t cumulative = 0;
        for (std::size_t b = 0; b < kBucketCount; ++b) {
            cumulative += perBucket[b];
            bound.clear();
            appendMetricValue(bound, kBuckets[b]);
            out.sample("storefront_http_request_duration_seconds_bucket", {{"route", labels_[s]}, {"le", bound}},
                       static_cast<double>(cumulative));
        }
        out.sample("storefront_http_request_duration_seconds_bucket", {{"route", labels_[s]}, {"le", "+Inf"}},
                   static_cast<double>(total));
        out.sample("storefront_http_request_duration_seconds_sum", {{"route", labels_[s]}},
                   static_cast<double>(slots_[s].sumMicros.load(std::memory_order_relaxed)) / 1e6);
        out.sample("storefront_http_request_duration_seconds_count", {{"route", labels_[s]}}, static_cast<double>(total));
    }

    out.family("storefront_http_requests_in_flight", "gauge", "Requests being handled now.");
    out.sample("storefront_http_requests_in_flight", {}, static_cast<double>(inFlight()));
}

} // namespace storefront::http
