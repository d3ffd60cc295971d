#include "http/answer_writer.h"

#include <Poco/Exception.h>
#include <Poco/Logger.h>
#include <Poco/Net/NetException.h>

#include <algorithm>
#include <chrono>
#include <charconv>
#include <cstdio>
#include <string>

namespace storefront::http {

void appendNumber(std::string& out, std::uint64_t value) {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, end);
}

// The whole answer (status line, headers, body) in one buffer and one send: POCO's response
// streams write the headers twice (once to count them) and the body in 4 KiB pieces, a system
// call each. The headers are the ones POCO would write, in the same order: those the connection
// set (Date, Connection, Server), the handler's, then Content-Type and Content-Length.
void appendHeader(std::string& out, const std::string& name, const std::string& value) {
    out.append(name).append(": ").append(value).append("\r\n");
}

// Writes all of `data` or throws (the client went away or stopped reading past the timeout).
// A blocking send under SO_SNDTIMEO waits the whole timeout for room and then returns what it
// could copy: the kernel may make a little room now and then (its buffers grow) while the client
// reads nothing, and a client that takes a trickle keeps a send going. So each send hands over at
// most kMaxPiece, and one that still copied only part of it after (nearly) the whole timeout ends
// the answer: the client took less than kMaxPiece in the send timeout (256 KiB in 30 s by
// default, about 8.5 KB/s), or nothing at all.
void sendAll(Poco::Net::StreamSocket& socket, const char* data, std::size_t size) {
    constexpr std::size_t kMaxPiece = 256 * 1024;
    while (size > 0) {
        const int piece = static_cast<int>(std::min(size, kMaxPiece));
        const auto started = std::chrono::steady_clock::now();
        const int sent = socket.sendBytes(data, piece);
        if (sent <= 0) throw Poco::Net::NetException("the client stopped receiving");
        if (sent < piece) {
            const auto waited = std::chrono::steady_clock::now() - started;
            const auto timeout = std::chrono::microseconds(socket.getSendTimeout().totalMicroseconds());
            if (timeout.count() > 0 && waited >= timeout * 9 / 10)
                throw Poco::TimeoutException("the client took too little of the answer within the send timeout");
        }
        data += sent;
        size -= static_cast<std::size_t>(sent);
    }
}

// A streamed answer (Response::stream): the headers, then each piece the writer hands over as
// one chunk (Transfer-Encoding: chunked), then the last chunk. When the writer fails (the client
// went away: the send throws; or the database failed mid-way) the connection closes without
// the last chunk, so the client knows its download is incomplete. Returns the body bytes sent.
std::uint64_t sendStreamed(Poco::Net::HTTPServerRequest& raw, Poco::Net::StreamSocket& socket,
                           Poco::Net::HTTPServerResponse& out, const Response& response) {
    out.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(response.status));
    if (!response.keepAlive) out.setKeepAlive(false);
    const bool head = raw.getMethod() == "HEAD";
    std::string buffer;
    buffer.append(out.getVersion()).append(1, ' ');
    appendNumber(buffer, static_cast<std::uint64_t>(response.status));
    buffer.append(1, ' ').append(out.getReason()).append("\r\n");
    for (const auto& [name, value] : out) appendHeader(buffer, name, value);
    for (const auto& [name, value] : response.headers) appendHeader(buffer, name, value);
    appendHeader(buffer, "Content-Type", response.contentType);
    appendHeader(buffer, "Transfer-Encoding", "chunked");
    buffer.append("\r\n");
    std::uint64_t bytes = 0;
    try {
        sendAll(socket, buffer.data(), buffer.size());
        if (head) return 0; // the headers only: a HEAD answer has no body, not even the last chunk
        std::string frame;
        response.stream([&](std::string_view piece) {
            if (piece.empty()) return; // an empty chunk would end the body
            frame.clear();
            char size[20];
            const int n = std::snprintf(size, sizeof size, "%zx\r\n", piece.size());
            frame.append(size, static_cast<std::size_t>(n)).append(piece).append("\r\n");
            sendAll(socket, frame.data(), frame.size());
            bytes += piece.size();
        });
        sendAll(socket, "0\r\n\r\n", 5);
    } catch (const Poco::Exception& e) {
        Poco::Logger::get("http").warning("%s %s: streamed answer ended after %s bytes: %s", raw.getMethod(),
                                          raw.getURI(), std::to_string(bytes), e.displayText());
        out.setKeepAlive(false);
    } catch (const std::exception& e) {
        Poco::Logger::get("http").error("%s %s: streamed answer failed after %s bytes: %s", raw.getMethod(), raw.getURI(),
                                        std::to_string(bytes), std::string(e.what()));
        out.setKeepAlive(false);
    }
    return bytes;
}

void sendAtOnce(Poco::Net::HTTPServerRequest& raw, Poco::Net::StreamSocket& socket,
                       Poco::Net::HTTPServerResponse& out, const Response& response) {
    out.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(response.status));
    if (!response.keepAlive) out.setKeepAlive(false); // also tells the connection to close
    const bool noBody = response.status == 204 || response.status == 304;
    const bool head = raw.getMethod() == "HEAD";
    std::string buffer;
    buffer.reserve(1024 + (noBody || head ? 0 : response.body.size()));
    buffer.append(out.getVersion()).append(1, ' ');
    appendNumber(buffer, static_cast<std::uint64_t>(response.status));
    buffer.append(1, ' ').append(out.getReason()).append("\r\n");
    for (const auto& [name, value] : out) appendHeader(buffer, name, value);
    for (const auto& [name, value] : response.headers) appendHeader(buffer, name, value);
    if (!noBody) appendHeader(buffer, "Content-Type", response.contentType);
    buffer.append("Content-Length: ");
    appendNumber(buffer, noBody ? 0 : response.body.size());
    buffer.append("\r\n\r\n");
    if (!noBody && !head) buffer.append(response.body);
    try {
        sendAll(socket, buffer.data(), buffer.size());
    } catch (const Poco::Exception&) {
        // The client went away (reset, timeout); nothing left to tell it.
        out.setKeepAlive(false);
    }
}

} // namespace storefront::http
