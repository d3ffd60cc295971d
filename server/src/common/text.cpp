#include "common/text.h"

#include <Poco/URI.h>

#include <algorithm>

namespace storefront::common {

std::size_t codePoints(std::string_view utf8) {
    return static_cast<std::size_t>(
        std::count_if(utf8.begin(), utf8.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string encodeUriComponent(const std::string& value) {
    std::string out;
    Poco::URI::encode(value, "!#$&'()*+,/:;=?@[]", out);
    return out;
}

} // namespace storefront::common
