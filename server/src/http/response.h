#pragma once
// What a handler answers. The connection handler writes it, adding security headers and logging.
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>
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

    // A body written while it is sent, instead of `body` (a CSV export of a million rows): the
    // server sends the status and headers with Transfer-Encoding: chunked, then calls `stream`
    // with a `send` that writes one chunk to the client and throws when the client has gone (the
    // exception ends the stream: the connection closes without the last chunk, so the client sees
    // an incomplete download, never a short file that looks whole). The handler has returned by
    // then: `stream` owns what it uses (nothing of the Request).
    using Send = std::function<void(std::string_view)>;
    std::function<void(const Send& send)> stream;

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
    void streamed(int statusCode, std::string type, std::function<void(const Send&)> writer) {
        status = statusCode;
        contentType = std::move(type);
        body.clear();
        stream = std::move(writer);
    }
    void set(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
};

} // namespace storefront::http
