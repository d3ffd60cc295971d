#include "http/response_cache.h"

namespace storefront::http {

void ResponseCache::serve(const std::string& key, Response& response, const std::function<void(Response&)>& render) {
    if (ttl_.count() <= 0) {
        render(response);
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        auto it = entries_.find(key);
        if (it != entries_.end() && it->second.expires > now) {
            response = *it->second.response;
            return;
        }
    }
    render(response);
    if (response.status != 200) return; // misses (404s for made-up slugs) are never kept
    auto kept = std::make_shared<const Response>(response);
    std::lock_guard lock(mutex_);
    // Bounded: only known pages are cached, but drop everything stale when the map grows.
    if (entries_.size() > 1000) entries_.clear();
    entries_[key] = Entry{std::move(kept), now + ttl_};
}

void ResponseCache::clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
}

} // namespace storefront::http
