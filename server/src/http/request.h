#pragma once
// A parsed view of one HTTP request: decoded path, route parameters, query, bounded body.
#include <Poco/Net/HTTPServerRequest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace storefront::http {

// Who is calling, set by the authoriser once a bearer token checked out against its live session.
struct Caller {
    std::string userId;
    std::string sessionId;
    std::string email;
    std::string aal;                // "aal1" or "aal2", from the token
    bool staffAdmin = false;        // holds the admin role (from the database, not the token)
    bool hasVerifiedFactor = false; // has a verified TOTP factor
    nlohmann::json claims;          // the verified JWT claims
};

class Request {
public:
    // `trustedProxies`: peer addresses whose X-Forwarded-For is believed.
    Request(Poco::Net::HTTPServerRequest& raw, std::size_t maxBodyBytes,
            const std::vector<std::string>& trustedProxies,
            std::chrono::steady_clock::time_point bodyDeadline = std::chrono::steady_clock::time_point::max());

    const std::string& method() const { return method_; }
    const std::string& path() const { return path_; } // percent-decoded, without the query
    std::optional<std::string> query(const std::string& name) const;
    std::string header(const std::string& name) const; // "" when absent
    const std::string& param(const std::string& name) const; // route parameter, e.g. {slug}
    void setParams(std::map<std::string, std::string> params) { params_ = std::move(params); }

    // The body, read once and at most maxBodyBytes long (413 beyond that).
    const std::string& body();
    // Raises this request's body limit (a route that takes uploads calls it before body()); the
    // server-wide limit stays as it is for every other route.
    void allowBodyUpTo(std::size_t bytes) { maxBodyBytes_ = std::max(maxBodyBytes_, bytes); }
    // The body as a JSON object: 415 unless Content-Type is application/json, 400 when malformed.
    nlohmann::json json();

    // The client's address: the peer, or the right-most untrusted X-Forwarded-For entry when the
    // peer is a trusted proxy.
    const std::string& clientAddress() const { return clientAddress_; }

    // Reads and discards an unread body so the connection can carry the next request.
    // Returns false when the body is too large to drain (the connection must then close).
    bool drainBody();

    Poco::Net::HTTPServerRequest& raw() { return raw_; }

    // The route that answered: its index in the route table, or HttpMetrics::kFallback (-2) for the
    // router's fallback, -1 before routing or when nothing matched. Metrics label by it.
    int routeIndex() const { return routeIndex_; }
    void setRouteIndex(int index) { routeIndex_ = index; }

    // The signed-in caller, or nullptr for anonymous requests.
    const Caller* caller() const { return caller_ ? &*caller_ : nullptr; }
    void setCaller(Caller caller) { caller_ = std::move(caller); }

private:
    // Reads the rest of the body, keeping it in `keep` when given; false past `limit` bytes or on error.
    bool readStream(std::size_t limit, std::string* keep);

    Poco::Net::HTTPServerRequest& raw_;
    std::size_t maxBodyBytes_;
    std::string method_;
    std::string path_;
    std::vector<std::pair<std::string, std::string>> query_;
    std::map<std::string, std::string> params_;
    std::optional<std::string> body_;
    std::chrono::steady_clock::time_point bodyDeadline_; // the body must have arrived by then (408 after)
    bool streamFailed_ = false; // reading the body timed out or the connection broke
    std::string clientAddress_;
    std::optional<Caller> caller_;
    int routeIndex_ = -1;
};

// The address rate limits and logs use: the peer, unless the peer is one of our proxies; then the
// right-most X-Forwarded-For hop that is not (hops further left are written by the client).
std::string clientAddressFrom(const std::string& peer, const std::string& forwardedFor,
                              const std::vector<std::string>& trustedProxies);

} // namespace storefront::http
