#include "http/api_error.h"

namespace storefront::http {

int statusFor(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::BadRequest: return 400;
    case ErrorKind::Unauthorized: return 401;
    case ErrorKind::Forbidden: return 403;
    case ErrorKind::NotFound: return 404;
    case ErrorKind::MethodNotAllowed: return 405;
    case ErrorKind::Conflict: return 409;
    case ErrorKind::RequestTimeout: return 408;
    case ErrorKind::PayloadTooLarge: return 413;
    case ErrorKind::UnsupportedMediaType: return 415;
    case ErrorKind::Validation: return 422;
    case ErrorKind::RateLimited: return 429;
    case ErrorKind::HeaderFieldsTooLarge: return 431;
    case ErrorKind::Internal: return 500;
    case ErrorKind::BadGateway: return 502;
    case ErrorKind::Unavailable: return 503;
    }
    return 500;
}

ApiError::ApiError(ErrorKind kind, std::string code, std::string message)
    : std::runtime_error(std::move(message)), kind_(kind), code_(std::move(code)) {}

nlohmann::json ApiError::body() const {
    nlohmann::json j = {{"code", code_}, {"message", what()}};
    if (!fields.empty()) j["fields"] = fields;
    for (const auto& [key, value] : extra.items()) j[key] = value;
    return j;
}

ApiError ApiError::validation(nlohmann::json fields, std::string message) {
    ApiError e(ErrorKind::Validation, "validation_failed", std::move(message));
    e.fields = std::move(fields);
    return e;
}

ApiError ApiError::notFound(std::string code, std::string message) {
    return ApiError(ErrorKind::NotFound, std::move(code), std::move(message));
}

ApiError ApiError::rateLimited(int retryAfterSeconds) {
    ApiError e(ErrorKind::RateLimited, "rate_limited", "Too many requests. Please wait a moment and try again.");
    e.retryAfterSeconds = retryAfterSeconds;
    return e;
}

} // namespace storefront::http
