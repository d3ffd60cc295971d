#include "http/body.h"

#include "common/text.h"
#include "http/api_error.h"

#include <Poco/String.h>

namespace storefront::http {

namespace {

nlohmann::json parse(Request& request, Body::Empty empty) {
    if (empty == Body::Empty::AsObject && request.body().empty()) return nlohmann::json::object();
    return request.json();
}

} // namespace

Body::Body(Request& request, Style style, Empty empty) : style_(style), json_(parse(request, empty)) {}

Body::Body(nlohmann::json json, Style style) : style_(style), json_(std::move(json)) {
    if (!json_.is_object()) throw ApiError(ErrorKind::BadRequest, "malformed_json", "The request body must be a JSON object.");
}

bool Body::has(const char* name) const {
    auto it = json_.find(name);
    return it != json_.end() && !it->is_null();
}

std::optional<std::string> Body::optText(const char* name) {
    if (!has(name)) return std::nullopt;
    const auto& v = json_.at(name);
    if (!v.is_string()) {
        fail(name, "Must be text.", std::string(name) + " must be a string");
        return std::nullopt;
    }
    return v.get<std::string>();
}

std::string Body::requiredText(const char* name, std::size_t maxChars) {
    auto value = optText(name);
    if (failed(name)) return {};
    std::string trimmed = value ? Poco::trim(*value) : std::string();
    if (trimmed.empty()) fail(name, "This field is required.", std::string(name) + " is required");
    else if (common::codePoints(trimmed) > maxChars)
        fail(name, "Must be at most " + std::to_string(maxChars) + " characters.", std::string(name) + " is too long");
    return trimmed;
}

namespace {
const char* kNotOneLine = "Must be a single line of text.";
}

std::string Body::requiredLine(const char* name, std::size_t maxChars) {
    auto value = requiredText(name, maxChars);
    if (!failed(name) && !common::isOneLine(value)) fail(name, kNotOneLine, std::string(name) + " must be one line");
    return failed(name) ? std::string() : value;
}

std::optional<std::string> Body::optLine(const char* name, std::size_t maxChars) {
    auto value = optTrimmedText(name, maxChars);
    if (value && !common::isOneLine(*value)) {
        fail(name, kNotOneLine, std::string(name) + " must be one line");
        return std::nullopt;
    }
    return value;
}

std::optional<std::int64_t> Body::optInteger(const char* name) {
    if (!has(name)) return std::nullopt;
    const auto& v = json_.at(name);
    if (!v.is_number_integer()) {
        fail(name, "Must be a whole number.", std::string(name) + " must be an integer");
        return std::nullopt;
    }
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
        fail(name, "Is too large.", std::string(name) + " is too large");
        return std::nullopt;
    }
    return v.get<std::int64_t>();
}

std::optional<std::string> Body::optTrimmedText(const char* name, std::size_t maxChars) {
    auto value = optText(name);
    if (!value) return std::nullopt;
    auto trimmed = Poco::trim(*value);
    if (trimmed.empty()) return std::nullopt;
    if (common::codePoints(trimmed) > maxChars) {
        fail(name, "Must be at most " + std::to_string(maxChars) + " characters.");
        return std::nullopt;
    }
    return trimmed;
}

std::optional<std::int64_t> Body::optIntegerIn(const char* name, std::int64_t min, std::int64_t max, const std::string& message) {
    auto value = optInteger(name);
    if (value && (*value < min || *value > max)) {
        fail(name, !message.empty() ? message
                                    : "Must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ".");
        return std::nullopt;
    }
    return value;
}

std::optional<bool> Body::optBoolean(const char* name) {
    if (!has(name)) return std::nullopt;
    const auto& v = json_.at(name);
    if (!v.is_boolean()) {
        fail(name, "Must be true or false.", std::string(name) + " must be true or false");
        return std::nullopt;
    }
    return v.get<bool>();
}

bool Body::boolean(const char* name, bool fallback) { return optBoolean(name).value_or(fallback); }

nlohmann::json Body::object(const char* name, std::size_t maxBytes) {
    if (!has(name)) return nlohmann::json::object();
    const auto& v = json_.at(name);
    if (!v.is_object()) {
        fail(name, "Must be an object.", std::string(name) + " must be an object");
        return nlohmann::json::object();
    }
    if (v.dump().size() > maxBytes) {
        fail(name, "Is too large.", std::string(name) + " is too large");
        return nlohmann::json::object();
    }
    return v;
}

void Body::fail(const std::string& name, const std::string& message, const std::string& gotrueMessage) {
    if (style_ == Style::GoTrue)
        throw ApiError(ErrorKind::BadRequest, "validation_failed", gotrueMessage.empty() ? message : gotrueMessage);
    if (!errors_.contains(name)) errors_[name] = message;
}

void Body::check() const {
    if (!errors_.empty()) throw ApiError::validation(errors_);
}

} // namespace storefront::http
