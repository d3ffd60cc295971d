#pragma once
// Route parameters as the handlers need them.
#include "http/request.h"

#include <string>

namespace storefront::http {

// The route parameter `name` ({id}) as a lower-case UUID, or 404 `code` / `message` when it is not
// one (a malformed id names no row, exactly like an unknown one).
std::string idParam(const Request& request, const char* code, const char* message, const char* name = "id");

} // namespace storefront::http
