#include "mail/mail_message.h"

namespace storefront::mail {

bool isSafeHeaderValue(const std::string& value) {
    for (unsigned char c : value)
        if (c < 0x20 || c == 0x7f) return false;
    return true;
}

bool isValidEmailAddress(const std::string& address) {
    if (address.size() < 3 || address.size() > 254 || !isSafeHeaderValue(address)) return false;
    auto at = address.find('@');
    if (at == std::string::npos || at == 0 || address.find('@', at + 1) != std::string::npos) return false;
    const std::string local = address.substr(0, at), domain = address.substr(at + 1);
    if (local.size() > 64 || domain.size() < 3) return false;
    for (char c : address)
        if (c == ' ' || c == '<' || c == '>' || c == ',' || c == ';' || c == '"' || c == '(' || c == ')' || c == '\\')
            return false;
    auto dot = domain.find('.');
    if (dot == std::string::npos || dot == 0 || domain.back() == '.' || domain.find("..") != std::string::npos)
        return false;
    return true;
}

} // namespace storefront::mail
