#include "http/request.h"

#include "http/api_error.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/String.h>
#include <Poco/StringTokenizer.h>
#include <Poco/URI.h>

#include <algorithm>
#include <cstdint>
#include <istream>

namespace storefront::http {

namespace {

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF). Decoded paths
// and query values go to the database as text, and PostgreSQL refuses anything else.
bool requestTextIsClean(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t cp = 0;
        if (c >= 0xC2 && c <= 0xDF) length = 2, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF) length = 3, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4) length = 4, cp = c & 0x07;
        else return false;
        if (i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (next & 0x3F);
        }
        if ((length == 3 && cp < 0x800) || (length == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += length;
    }
    return true;
}

} // namespace

std::string clientAddressFrom(const std::string& peer, const std::string& forwardedFor,
                              const std::vector<std::string>& trustedProxies) {
    auto trusted = [&](const std::string& a) {
        return std::find(trustedProxies.begin(), trustedProxies.end(), a) != trustedProxies.end();
    };
    if (!trusted(peer) || forwardedFor.empty()) return peer;
    // Right-most hop that is not one of our own proxies: everything left of it is client-written.
    Poco::StringTokenizer hops(forwardedFor, ",", Poco::StringTokenizer::TOK_TRIM | Poco::StringTokenizer::TOK_IGNORE_EMPTY);
    for (auto it = hops.end(); it != hops.begin();) {
        --it;
        if (!trusted(*it)) return *it;
    }
    return peer;
}

Request::Request(Poco::Net::HTTPServerRequest& raw, std::size_t maxBodyBytes,
                 const std::vector<std::string>& trustedProxies, std::chrono::steady_clock::time_point bodyDeadline)
    : raw_(raw), maxBodyBytes_(maxBodyBytes), method_(raw.getMethod()), bodyDeadline_(bodyDeadline) {
    try {
        const auto& target = raw.getURI();
        // A plain path (no escapes, no query) is its own decoded form: no URI parse needed.
        if (target.starts_with('/') && target.find_first_of("%?#") == std::string::npos) {
            path_ = target;
        } else {
            Poco::URI uri(target);
            path_ = uri.getPath();
            query_ = uri.getQueryParameters();
        }
    } catch (const Poco::Exception&) {
        path_ = "/";
        throw ApiError(ErrorKind::BadRequest, "bad_request", "The request URL is malformed.");
    }
    if (path_.empty()) path_ = "/";
    // No route or row has a name that is not UTF-8 (an id that is not one is unknown: 404).
    if (!requestTextIsClean(path_)) {
        path_ = "/";
        query_.clear();
        throw ApiError::notFound("not_found", "No such endpoint.");
    }
    bool cleanQuery = true;
    for (const auto& [k, v] : query_) cleanQuery = cleanQuery && requestTextIsClean(k) && requestTextIsClean(v);
    if (!cleanQuery) {
        query_.clear();
        throw ApiError(ErrorKind::BadRequest, "bad_request", "The request URL's query is not valid UTF-8.");
    }
    clientAddress_ = clientAddressFrom(raw.clientAddress().host().toString(), raw.get("X-Forwarded-For", ""),
                                       trustedProxies);
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
    const bool read = readStream(maxBodyBytes_, &data);
    // The client stopped sending (past the server's read timeout) or the connection broke.
    if (streamFailed_) throw ApiError(ErrorKind::RequestTimeout, "request_timeout", "The request body did not arrive in time.");
    if (!read) throw ApiError(ErrorKind::PayloadTooLarge, "payload_too_large", "The request body is too large.");
    if (raw_.hasContentLength() && static_cast<Poco::Int64>(data.size()) < raw_.getContentLength64())
        throw ApiError(ErrorKind::BadRequest, "incomplete_body", "The request body is shorter than its Content-Length.");
    body_ = std::move(data);
    return *body_;
}

nlohmann::json Request::json() {
    std::string type = Poco::toLower(header("Content-Type"));
    type = Poco::trim(type.substr(0, type.find(';')));
    if (type != "application/json")
        throw ApiError(ErrorKind::UnsupportedMediaType, "unsupported_media_type",
                       "Send the request body as application/json.");
    auto parsed = nlohmann::json::parse(body(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) throw ApiError(ErrorKind::BadRequest, "malformed_json", "The request body is not valid JSON.");
    if (!parsed.is_object()) throw ApiError(ErrorKind::BadRequest, "malformed_json", "The request body must be a JSON object.");
    return parsed;
}

bool Request::readStream(std::size_t limit, std::string* keep) {
    auto& in = raw_.stream();
    char buffer[8192];
    std::size_t total = 0;
    try {
        while (in.good()) {
            // A body trickling in (a byte every few seconds never trips the receive timeout):
            // it has until the deadline, then it is a timeout like any other.
            if (std::chrono::steady_clock::now() > bodyDeadline_) {
                streamFailed_ = true;
                return false;
            }
            in.read(buffer, sizeof buffer);
            const auto n = static_cast<std::size_t>(in.gcount());
            total += n;
            if (keep) keep->append(buffer, n);
            if (total > limit) return false;
        }
    } catch (const std::exception&) {
        streamFailed_ = true;
        return false;
    }
    // std::istream swallows the socket's timeout or reset into badbit.
    if (in.bad()) streamFailed_ = true;
    return !in.bad();
}

bool Request::drainBody() {
    if (body_) return true;
    // No body to drain: POCO reads none for a GET, HEAD or DELETE without a length (nor for a
    // length of 0), so neither does this.
    const bool bodiless = raw_.hasContentLength() ? raw_.getContentLength64() == 0
                                                  : !raw_.getChunkedTransferEncoding() &&
                                                        (method_ == "GET" || method_ == "HEAD" || method_ == "DELETE");
    if (bodiless) return true;
    if (streamFailed_) return false; // waiting again would only time out again
    // Read and discard what is left (also after a 413), up to a bound, so the client sees our
    // answer instead of a connection reset and a well-behaved connection can be reused.
    const std::size_t cap = std::max<std::size_t>(maxBodyBytes_ * 4, 1 << 20);
    if (raw_.hasContentLength() && raw_.getContentLength64() > static_cast<Poco::Int64>(cap)) return false;
    return readStream(cap, nullptr);
}

} // namespace storefront::http
