#pragma once
// Request ids: every request gets one, sent back in X-Request-Id, written on each log line the
// request causes (common/log_context.h) and in every JSON error body as "request_id".
#include <string>
#include <string_view>

namespace storefront::http {

// An id we accept from a trusted proxy: 1 to 64 characters of A-Z a-z 0-9 . _ -
bool isPlainRequestId(std::string_view id);

// A new random id: 32 lowercase hex digits (128 bits from a per-thread generator seeded by the
// kernel; no system call per request).
std::string newRequestId();

// The request's id: `incoming` (the X-Request-Id header) when the peer is one of our trusted
// proxies and the id is plain, else a new one.
std::string requestIdFor(std::string_view incoming, bool peerIsTrustedProxy);

} // namespace storefront::http
