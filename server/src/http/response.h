#pragma once
// What a handler answers. The connection handler writes it, adding security headers and logging.
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace storefront::http {

struct Response {
    int status = 200;
    std::string contentType = "application/json; charset=utf-8";
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    bool keepAlive = true;
    std::string errorCode; // the ApiError code when this answers an error ("" otherwise)

    void json(int statusCode, const nlohmann::json& value) {
        status = statusCode;
        contentType = "application/json; charset=utf-8";
        // Invalid UTF-8 in stored text must not turn a response into a 500.
        body = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    void text(int statusCode, std::string type, std::string content) {
        status = statusCode;
        contentType = std::move(type);
        body = std::move(content);
    }
    void noContent() {
        status = 204;
        body.clear();
    }
    void set(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
};

} // namespace storefront::http
