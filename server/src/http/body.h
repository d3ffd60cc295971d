#pragma once
// The one reader of JSON request bodies. Routes read the body into typed input with it; services
// never see raw JSON. Each accessor checks one member's type and records a message for that field;
// check() then answers every problem at once as 422 validation_failed with "fields":
//
//   http::Body body(req);
//   ProductInput in;
//   in.name = body.requiredText("name", 200);
//   in.stock = body.optInteger("stock_quantity");
//   if (in.stock && *in.stock < 0) body.fail("stock_quantity", "Must be 0 or more.");
//   body.check();
//
// The /auth/v1 routes speak GoTrue, which answers the first problem as 400 validation_failed with
// a sentence naming the member ("email must be a string"): Body(req, Body::Style::GoTrue).
#include "http/request.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace storefront::http {

class Body {
public:
    enum class Style { Fields422, GoTrue };
    // What an empty body is: {} (GoTrue and the apps send none to some calls), or an error like any
    // other body that is not a JSON object (415 without application/json, 400).
    enum class Empty { AsObject, Refused };

    // The request's body as a JSON object (415 without application/json, 400 when malformed).
    explicit Body(Request& request, Style style = Style::Fields422, Empty empty = Empty::AsObject);
    explicit Body(nlohmann::json json, Style style = Style::Fields422);

    const nlohmann::json& json() const { return json_; }
    // Present and not null.
    bool has(const char* name) const;

    // Text; nullopt when absent or null. A wrong type is a field error.
    std::optional<std::string> optText(const char* name);
    // Text that must be present and non-empty after trimming, at most maxChars characters; the
    // trimmed value ("" after a field error).
    std::string requiredText(const char* name, std::size_t maxChars);
    // One line of text (common::isOneLine: no CR, LF, NUL or other control character), for every
    // member that ends up in a mail header, a file name or a CSV line: trimmed, at most maxChars
    // characters, else a field error naming the member. requiredLine: present and non-empty (the
    // trimmed value, "" after a field error); optLine: nullopt when absent, null or empty.
    std::string requiredLine(const char* name, std::size_t maxChars);
    std::optional<std::string> optLine(const char* name, std::size_t maxChars);
    // A whole number; nullopt when absent or null.
    std::optional<std::int64_t> optInteger(const char* name);
    // Optional text: trimmed, nullopt when absent, null or empty, at most maxChars characters (a
    // field error past it, and nullopt).
    std::optional<std::string> optTrimmedText(const char* name, std::size_t maxChars);
    // An optional whole number from min to max; outside it a field error (`message`, or "Must be a
    // whole number from min to max.") and nullopt.
    std::optional<std::int64_t> optIntegerIn(const char* name, std::int64_t min, std::int64_t max,
                                             const std::string& message = "");
    // true/false; `fallback` when absent or null.
    bool boolean(const char* name, bool fallback);
    std::optional<bool> optBoolean(const char* name);
    // An object member (metadata); {} when absent or null; at most maxBytes once serialised.
    nlohmann::json object(const char* name, std::size_t maxBytes = 16384);

    // Records a problem with a field (the first one per field is kept). In GoTrue style it throws
    // at once: 400 validation_failed with `gotrueMessage`, or the field message when that is empty.
    void fail(const std::string& name, const std::string& message, const std::string& gotrueMessage = "");
    bool failed(const std::string& name) const { return errors_.contains(name); }
    bool ok() const { return errors_.empty(); }
    // The recorded field messages, {"field": "message"}.
    const nlohmann::json& errors() const { return errors_; }
    // Throws 422 validation_failed with every recorded field message, if there are any.
    void check() const;

private:
    Style style_;
    nlohmann::json json_;
    nlohmann::json errors_ = nlohmann::json::object();
};

} // namespace storefront::http
