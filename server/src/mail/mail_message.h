#pragma once
#include <string>

namespace storefront::mail {

struct MailMessage {
    std::string kind;    // e.g. "contact", later "signup_confirmation", "order_confirmation"
    std::string to;      // one address
    std::string replyTo; // optional
    std::string subject;
    std::string text;    // plain-text body
};

// True when `value` can go into a mail header: no CR, LF or other control characters.
bool isSafeHeaderValue(const std::string& value);

// A practical address check: one @, a dotted domain, no spaces or control characters, ≤ 254 chars.
bool isValidEmailAddress(const std::string& address);

} // namespace storefront::mail
