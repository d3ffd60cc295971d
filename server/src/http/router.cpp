#include "http/router.h"

#include "http/api_error.h"

#include <map>
#include <set>

namespace storefront::http {

namespace {

std::vector<std::string> split(const std::string& path) {
    std::vector<std::string> out;
    std::size_t start = 1;
    while (start <= path.size()) {
        auto slash = path.find('/', start);
        if (slash == std::string::npos) slash = path.size();
        out.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return out;
}

bool matches(const std::vector<std::string>& pattern, const std::vector<std::string>& path,
             std::map<std::string, std::string>& params) {
    if (pattern.size() != path.size()) return false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const auto& p = pattern[i];
        if (p.size() > 2 && p.front() == '{' && p.back() == '}') {
            if (path[i].empty()) return false;
            params[p.substr(1, p.size() - 2)] = path[i];
        } else if (p != path[i]) {
            return false;
        }
    }
    return true;
}

} // namespace

void Router::add(std::string method, std::string pattern, Access access, Handler handler, Store store) {
    auto segments = split(pattern);
    routes_.push_back({std::move(method), std::move(pattern), std::move(segments), access, std::move(handler), store});
}

std::vector<RouteInfo> Router::routes() const {
    std::vector<RouteInfo> out;
    out.reserve(routes_.size());
    for (const auto& route : routes_) out.push_back({route.method, route.pattern, route.access, route.store});
    return out;
}

void Router::dispatch(Request& request, Response& response) const {
    const auto path = split(request.path());
    std::set<std::string> allowed;
    for (std::size_t index = 0; index < routes_.size(); ++index) {
        const auto& route = routes_[index];
        std::map<std::string, std::string> params;
        if (!matches(route.segments, path, params)) continue;
        const bool head = request.method() == "HEAD" && route.method == "GET";
        if (route.method != request.method() && !head) {
            allowed.insert(route.method);
            continue;
        }
        request.setParams(std::move(params));
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
    // The server's own paths never fall through to the web app: an unknown one is a 404 whatever the
    // method (/pay/: the local test provider's pages, absent in production).
    const bool apiPath = request.path().starts_with("/api/") || request.path().starts_with("/auth/") ||
                         request.path().starts_with("/functions/") || request.path().starts_with("/webhooks/") ||
                         request.path().starts_with("/pay/");
    if (fallback_ && !apiPath) {
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
