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

} // namespace storefront::http
