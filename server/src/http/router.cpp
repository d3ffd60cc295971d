#include "http/router.h"

#include "http/api_error.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

namespace storefront::http {

namespace {

// The path's segments as views into it (no copies: every request splits its path once).
std::vector<std::string_view> segmentsOf(std::string_view path) {
    std::vector<std::string_view> out;
    std::size_t start = 1;
    while (start <= path.size()) {
        auto slash = path.find('/', start);
        if (slash == std::string_view::npos) slash = path.size();
        out.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return out;
}

// A pattern's segments, kept with the route.
std::vector<std::string> split(const std::string& pattern) {
    const auto views = segmentsOf(pattern);
    return {views.begin(), views.end()};
}

bool isParameter(const std::string& segment) { return segment.size() > 2 && segment.front() == '{' && segment.back() == '}'; }

bool matches(const std::vector<std::string>& pattern, const std::vector<std::string_view>& path) {
    if (pattern.size() != path.size()) return false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (isParameter(pattern[i])) {
            if (path[i].empty()) return false;
        } else if (pattern[i] != path[i]) {
            return false;
        }
    }
    return true;
}

std::map<std::string, std::string> paramsOf(const std::vector<std::string>& pattern, const std::vector<std::string_view>& path) {
    std::map<std::string, std::string> params;
    for (std::size_t i = 0; i < pattern.size(); ++i)
        if (isParameter(pattern[i])) params[pattern[i].substr(1, pattern[i].size() - 2)] = std::string(path[i]);
    return params;
}

// The server's own paths never fall through to the web app: an unknown one is a 404 whatever the
// method (/pay/: the local test provider's pages, absent in production).
bool isServerPath(std::string_view path) {
    return path.starts_with("/api/") || path.starts_with("/auth/") || path.starts_with("/functions/") ||
           path.starts_with("/webhooks/") || path.starts_with("/pay/");
}

} // namespace

void Router::add(std::string method, std::string pattern, Access access, Handler handler, Store store) {
    auto segments = split(pattern);
    const auto index = routes_.size();
    if (isParameter(segments.front())) { // can match any first segment: in every bucket
        parameterFirst_.push_back(index);
        for (auto& [first, indexes] : byFirstSegment_) indexes.push_back(index);
    } else {
        byFirstSegment_.try_emplace(segments.front(), parameterFirst_).first->second.push_back(index);
    }
    routes_.push_back({std::move(method), std::move(pattern), std::move(segments), access, std::move(handler), store});
}

const std::vector<std::size_t>& Router::candidates(std::string_view firstSegment) const {
    const auto it = byFirstSegment_.find(firstSegment);
    return it == byFirstSegment_.end() ? parameterFirst_ : it->second;
}

std::vector<RouteInfo> Router::routes() const {
    std::vector<RouteInfo> out;
    out.reserve(routes_.size());
    for (const auto& route : routes_) out.push_back({route.method, route.pattern, route.access, route.store});
    return out;
}

void Router::runOnLoop(const std::string& pattern) {
    bool found = false;
    for (auto& route : routes_)
        if (route.method == "GET" && route.pattern == pattern) route.onLoop = found = true;
    if (!found) throw std::logic_error("runOnLoop: no GET route " + pattern);
}

bool Router::runsOnLoop(std::string_view method, std::string_view path) const {
    if ((method != "GET" && method != "HEAD") || !path.starts_with('/')) return false;
    const auto segments = segmentsOf(path);
    bool otherMethods = false; // routes of other methods on this path: a 405 unless a GET route follows
    for (const auto index : candidates(segments.empty() ? std::string_view() : segments.front())) {
        const auto& route = routes_[index];
        if (!matches(route.segments, segments)) continue;
        if (route.method == "GET") return route.onLoop;
        otherMethods = true;
    }
    return !otherMethods && fallbackOnLoop_ && fallback_ && !isServerPath(path);
}

void Router::dispatch(Request& request, Response& response) const {
    const auto path = segmentsOf(request.path());
    std::set<std::string> allowed;
    for (const auto index : candidates(path.empty() ? std::string_view() : path.front())) {
        const auto& route = routes_[index];
        if (!matches(route.segments, path)) continue;
        const bool head = request.method() == "HEAD" && route.method == "GET";
        if (route.method != request.method() && !head) {
            allowed.insert(route.method);
            continue;
        }
        request.setParams(paramsOf(route.segments, path));
        request.setRouteIndex(static_cast<int>(index));
        if (authorizer_) authorizer_(request, route.access);
        else denyAllButPublic(request, route.access);
        for (const auto& [access, check] : checks_)
            if (access == route.access) check(request);
        // The one place private answers are marked unstorable (Store in router.h).
        if (route.store == Store::Never || route.access != Access::Anyone) response.set("Cache-Control", "no-store");
        route.handler(request, response);
        return;
    }
    if (!allowed.empty()) {
        ApiError e(ErrorKind::MethodNotAllowed, "method_not_allowed", "This method is not allowed here.");
        for (const auto& m : allowed) e.allow += (e.allow.empty() ? "" : ", ") + m;
        if (allowed.contains("GET")) e.allow += ", HEAD";
        throw e;
    }
    const bool readOnly = request.method() == "GET" || request.method() == "HEAD";
    if (fallback_ && !isServerPath(request.path())) {
        if (!readOnly) {
            ApiError e(ErrorKind::MethodNotAllowed, "method_not_allowed", "This method is not allowed here.");
            e.allow = "GET, HEAD";
            throw e;
        }
        request.setRouteIndex(kFallbackRoute);
        fallback_(request, response);
        return;
    }
    throw ApiError::notFound("not_found", "No such endpoint.");
}

void denyAllButPublic(Request&, Access access) {
    if (access != Access::Anyone)
        throw ApiError(ErrorKind::Unauthorized, "not_authenticated", "Sign in to continue.");
}

} // namespace storefront::http
