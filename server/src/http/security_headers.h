#pragma once
#include "http/response.h"

namespace storefront::http {

// The Content-Security-Policy of every response: no inline script, no framing.
extern const char* const kContentSecurityPolicy;

// Adds the security headers every response carries, error pages included.
void addSecurityHeaders(Response& response, bool httpsPublicUrl);

} // namespace storefront::http
