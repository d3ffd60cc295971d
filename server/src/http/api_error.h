#pragma once
// The one error type handlers raise for client-visible failures, and the one map from error kind
// to HTTP status. Every error body is {"code": "...", "message": "..."} (+ "fields" for 422).
#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace storefront::http {

enum class ErrorKind {
    BadRequest,           // 400
    Unauthorized,         // 401
    Forbidden,            // 403
    NotFound,             // 404
    MethodNotAllowed,     // 405
    Conflict,             // 409
    RequestTimeout,       // 408
    PayloadTooLarge,      // 413
    UnsupportedMediaType, // 415
    Validation,           // 422
    RateLimited,          // 429
    HeaderFieldsTooLarge, // 431 (a header line over the limit, or too many header fields)
    Internal,             // 500
    BadGateway,           // 502 (an upstream service, e.g. the payment provider, failed)
    Unavailable,          // 503
};

// The single place that decides which HTTP status an error kind gets.
int statusFor(ErrorKind kind);

class ApiError : public std::runtime_error {
public:
    ApiError(ErrorKind kind, std::string code, std::string message);

    ErrorKind kind() const { return kind_; }
    const std::string& code() const { return code_; }
    int status() const { return statusFor(kind_); }

    // Field errors for 422 responses: {"email": "Enter a valid email address"}.
    nlohmann::json fields = nlohmann::json::object();
    // Further members of the body, e.g. {"weak_password": {"reasons": [...]}} for the auth API.
    nlohmann::json extra = nlohmann::json::object();
    // Seconds for the Retry-After header (429, 503).
    std::optional<int> retryAfterSeconds;
    // Allowed methods for the Allow header (405).
    std::string allow;

    nlohmann::json body() const;

    static ApiError validation(nlohmann::json fields, std::string message = "Some fields need attention.");
    static ApiError notFound(std::string code = "not_found", std::string message = "Not found.");
    static ApiError rateLimited(int retryAfterSeconds);

private:
    ErrorKind kind_;
    std::string code_;
};

} // namespace storefront::http
