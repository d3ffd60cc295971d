#include "http/request.h"

#include "http/api_error.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/String.h>
#include <Poco/URI.h>

#include <algorithm>
#include <istream>

namespace storefront::http {

namespace {

std::string trim(const std::string& s) { return Poco::trim(s); }

// Right-most X-Forwarded-For entry that is not one of our own proxies.
std::string forwardedClient(const std::string& header, const std::vector<std::string>& trusted,
                            const std::string& fallback) {
    std::vector<std::string> hops;
    std::size_t start = 0;
    while (start <= header.size()) {
        auto comma = header.find(',', start);
        if (comma == std::string::npos) comma = header.size();
        auto hop = trim(header.substr(start, comma - start));
        if (!hop.empty()) hops.push_back(hop);
        start = comma + 1;
    }
    for (auto it = hops.rbegin(); it != hops.rend(); ++it)
        if (std::find(trusted.begin(), trusted.end(), *it) == trusted.end()) return *it;
    return fallback;
}

} // namespace

Request::Request(Poco::Net::HTTPServerRequest& raw, std::size_t maxBodyBytes,
                 const std::vector<std::string>& trustedProxies)
    : raw_(raw), maxBodyBytes_(maxBodyBytes), method_(raw.getMethod()) {
    try {
        Poco::URI uri(raw.getURI());
        path_ = uri.getPath();
        query_ = uri.getQueryParameters();
    } catch (const Poco::Exception&) {
        path_ = "/";
        throw ApiError(ErrorKind::BadRequest, "bad_request", "The request URL is malformed.");
    }
    if (path_.empty()) path_ = "/";
    const std::string peer = raw.clientAddress().host().toString();
    clientAddress_ = peer;
    if (std::find(trustedProxies.begin(), trustedProxies.end(), peer) != trustedProxies.end() &&
        raw.has("X-Forwarded-For"))
        clientAddress_ = forwardedClient(raw.get("X-Forwarded-For"), trustedProxies, peer);
}

std::optional<std::string> Request::query(const std::string& name) const {
    for (const auto& [k, v] : query_)
        if (k == name) return v;
    return std::nullopt;
}

std::string Request::header(const std::string& name) const { return raw_.get(name, ""); }

const std::string& Request::param(const std::string& name) const {
    static const std::string empty;
    auto it = params_.find(name);
    return it == params_.end() ? empty : it->second;
}

const std::string& Request::body() {
    if (body_) return *body_;
    if (raw_.hasContentLength() && raw_.getContentLength64() > static_cast<Poco::Int64>(maxBodyBytes_))
        throw ApiError(ErrorKind::PayloadTooLarge, "payload_too_large", "The request body is too large.");
    std::string data;
    auto& in = raw_.stream();
    char buffer[8192];
    while (in.good()) {
        in.read(buffer, sizeof buffer);
        data.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (data.size() > maxBodyBytes_)
            throw ApiError(ErrorKind::PayloadTooLarge, "payload_too_large", "The request body is too large.");
    }
    body_ = std::move(data);
    return *body_;
}

nlohmann::json Request::json() {
    std::string type = Poco::toLower(header("Content-Type"));
    auto semi = type.find(';');
    if (semi != std::string::npos) type = trim(type.substr(0, semi));
    if (type != "application/json")
        throw ApiError(ErrorKind::UnsupportedMediaType, "unsupported_media_type",
                       "Send the request body as application/json.");
    auto parsed = nlohmann::json::parse(body(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) throw ApiError(ErrorKind::BadRequest, "malformed_json", "The request body is not valid JSON.");
    if (!parsed.is_object()) throw ApiError(ErrorKind::BadRequest, "malformed_json", "The request body must be a JSON object.");
    return parsed;
}

bool Request::drainBody() {
    if (body_) return true;
    // Read and discard what is left (also after a 413), up to a bound, so the client sees our
    // answer instead of a connection reset and a well-behaved connection can be reused.
    const std::size_t cap = std::max<std::size_t>(maxBodyBytes_ * 4, 1 << 20);
    if (raw_.hasContentLength() && raw_.getContentLength64() > static_cast<Poco::Int64>(cap)) return false;
    auto& in = raw_.stream();
    char buffer[8192];
    std::size_t discarded = 0;
    try {
        while (in.good() && discarded <= cap) {
            in.read(buffer, sizeof buffer);
            discarded += static_cast<std::size_t>(in.gcount());
        }
    } catch (const std::exception&) {
        return false;
    }
    return discarded <= cap && !in.bad();
}

} // namespace storefront::http
