#pragma once
// A short-lived cache of whole responses for public, read-mostly pages (the catalogue API, the
// landing and product pages). Entries live `ttl` milliseconds, so a change made on any server
// shows everywhere within that time; clear() drops everything at once after a local write.
#include "http/response.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace storefront::http {

class ResponseCache {
public:
    explicit ResponseCache(std::chrono::milliseconds ttl) : ttl_(ttl) {}

    // Answers from the cache, or runs `render` and keeps its result when the status is 200.
    void serve(const std::string& key, Response& response, const std::function<void(Response&)>& render);
    void clear();

private:
    struct Entry {
        std::shared_ptr<const Response> response;
        std::chrono::steady_clock::time_point expires;
    };
    std::chrono::milliseconds ttl_;
    std::mutex mutex_;
    std::map<std::string, Entry> entries_;
};

} // namespace storefront::http
