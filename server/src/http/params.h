#pragma once
// Route parameters as the handlers need them.
#include "http/request.h"

#include <optional>
#include <string>

namespace storefront::http {

// The route parameter `name` ({id}) as a lower-case UUID, or 404 `code` / `message` when it is not
// one (a malformed id names no row, exactly like an unknown one).
std::string idParam(const Request& request, const char* code, const char* message, const char* name = "id");

// The optional Idempotency-Key header of a write that moves money (a refund): a repeat of the same
// request answers without doing it again. 400 bad_idempotency_key unless it is 1 to 255 printable
// ASCII characters; nullopt when absent.
std::optional<std::string> idempotencyKey(const Request& request);

} // namespace storefront::http
