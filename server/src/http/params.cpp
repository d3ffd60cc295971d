#include "http/params.h"

#include "common/text.h"
#include "http/api_error.h"

#include <Poco/String.h>

namespace storefront::http {

std::string idParam(const Request& request, const char* code, const char* message, const char* name) {
    auto id = Poco::toLower(request.param(name));
    if (!common::isUuid(id)) throw ApiError::notFound(code, message);
    return id;
}

std::optional<std::string> idempotencyKey(const Request& request) {
    const auto key = request.header("Idempotency-Key");
    if (key.empty()) return std::nullopt;
    bool printable = key.size() <= 255;
    for (unsigned char c : key) printable = printable && c >= 0x21 && c <= 0x7e;
    if (!printable)
        throw ApiError(ErrorKind::BadRequest, "bad_idempotency_key",
                       "The Idempotency-Key header must be at most 255 printable ASCII characters.");
    return key;
}

} // namespace storefront::http
