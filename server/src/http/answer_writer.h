#pragma once
// Writing an answer straight to the connection's socket (http/server.cpp hands over every answer):
// the whole answer in one buffer and one send (pieces of 256 KiB for a larger one), or a streamed
// one (Response::stream) as chunks.
// Every send is bounded by the socket's send timeout (STOREFRONT_SEND_TIMEOUT_SECONDS, set by
// http/connection.cpp): a client that stops reading makes the send throw, and the connection
// closes, releasing its thread.
#include "http/response.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/StreamSocket.h>

#include <cstdint>
#include <string>

namespace storefront::http {

// Decimal digits of `value`, appended (no locale, no printf).
void appendNumber(std::string& out, std::uint64_t value);
// "Name: value\r\n".
void appendHeader(std::string& out, const std::string& name, const std::string& value);
// Writes all of `data` or throws (the client went away, or took less than 256 KiB of it within
// the send timeout: answer_writer.cpp).
void sendAll(Poco::Net::StreamSocket& socket, const char* data, std::size_t size);
// A streamed answer (Response::stream); returns the body bytes sent. When the writer or a send
// fails the connection is marked to close without the last chunk, so the download is incomplete.
std::uint64_t sendStreamed(Poco::Net::HTTPServerRequest& raw, Poco::Net::StreamSocket& socket,
                           Poco::Net::HTTPServerResponse& out, const Response& response);
// The whole answer at once; a failed send marks the connection to close.
void sendAtOnce(Poco::Net::HTTPServerRequest& raw, Poco::Net::StreamSocket& socket, Poco::Net::HTTPServerResponse& out,
                const Response& response);

} // namespace storefront::http
