// http/connection.cpp's answers to what POCO's reader refuses: which status and code each of POCO
// 1.11's messages gets, and the bytes of a closing error answer (JSON, headers, Content-Length).
#include "http/connection.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

using storefront::http::closingErrorAnswer;
using storefront::http::serverBusyError;
using storefront::http::unreadableRequestError;

TEST(HttpConnection, EachUnreadableRequestGetsAnHonestStatusAndCode) {
    struct Case {
        const char* pocoMessage;
        int status;
        const char* code;
    };
    const Case cases[] = {
        {"Field value too long/no CRLF found", 431, "request_header_too_large"},
        {"Too many header fields", 431, "request_header_too_large"},
        {"Field name too long/no colon found", 400, "bad_request"},
        {"HTTP request method invalid or too long", 400, "bad_request"},
        {"HTTP request URI invalid or too long", 400, "bad_request"},
        {"Invalid HTTP version string", 400, "bad_request"},
        {"No HTTP request header", 400, "bad_request"},
        {"", 400, "bad_request"},
    };
    for (const auto& c : cases) {
        const auto error = unreadableRequestError(c.pocoMessage);
        EXPECT_EQ(error.status(), c.status) << c.pocoMessage;
        EXPECT_EQ(error.code(), c.code) << c.pocoMessage;
        // Nothing of POCO's text reaches the client.
        if (*c.pocoMessage) {
            EXPECT_EQ(error.body().dump().find(c.pocoMessage), std::string::npos) << c.pocoMessage;
        }
    }
}

TEST(HttpConnection, TheBusyAnswerIsACompleteClosingJsonResponseWithTheSecurityHeaders) {
    const std::string answer = closingErrorAnswer(serverBusyError(), /*httpsPublicUrl=*/true, "busy-request-1");
    ASSERT_TRUE(answer.starts_with("HTTP/1.1 503 Service Unavailable\r\n")) << answer;
    const auto headEnd = answer.find("\r\n\r\n");
    ASSERT_NE(headEnd, std::string::npos);
    const std::string head = answer.substr(0, headEnd + 2);
    const std::string body = answer.substr(headEnd + 4);
    for (const char* header : {"\r\nDate: ", "\r\nConnection: close\r\n", "\r\nRetry-After: 1\r\n", "\r\nCache-Control: no-store\r\n",
                               "frame-ancestors 'none'", "\r\nX-Content-Type-Options: nosniff\r\n", "\r\nX-Frame-Options: DENY\r\n",
                               "\r\nReferrer-Policy: ", "\r\nStrict-Transport-Security: ",
                               "\r\nContent-Type: application/json; charset=utf-8\r\n", "\r\nX-Request-Id: busy-request-1\r\n"})
        EXPECT_NE(head.find(header), std::string::npos) << header;
    EXPECT_NE(head.find("\r\nContent-Length: " + std::to_string(body.size()) + "\r\n"), std::string::npos) << head;
    const auto json = nlohmann::json::parse(body);
    EXPECT_EQ(json["code"], "server_busy");
    EXPECT_EQ(json["request_id"], "busy-request-1");
    EXPECT_FALSE(json["message"].get<std::string>().empty());
    // Small enough for one non-blocking send into an empty socket buffer.
    EXPECT_LT(answer.size(), 2048u);
}
