#pragma once
// The one place a mail's wire form is written (RFC 5322 + MIME), for SMTP:
// - CRLF line endings everywhere, no bare CR or LF; no line over 78 octets in the headers and
//   76 in the body (RFC 5322 allows 998);
// - Date (RFC 5322 form, UTC), From, To, Reply-To (when set), Subject, Message-ID on the From
//   address's domain, MIME-Version 1.0;
// - a multipart/alternative body: the text/plain part, then the text/html part (mail/html_part.h),
//   both UTF-8 quoted-printable, between boundaries that quoted-printable text cannot contain ("=_");
// - header text outside printable ASCII (Subject, display names) as RFC 2047 encoded-words
//   (UTF-8, base64, each at most 75 characters), folded.
// Header values with control characters are refused (std::invalid_argument): no header injection.
#include "mail/html_part.h"
#include "mail/mail_message.h"

#include <ctime>
#include <string>

namespace storefront::mail {

struct Mailbox {
    std::string displayName; // may be empty; any UTF-8
    std::string address;     // local@domain, ASCII
};

// Reads "addr", "<addr>", "Name <addr>" or "\"Name\" <addr>"; std::invalid_argument when the
// address is not a valid ASCII mail address or the text has control characters.
Mailbox parseMailbox(const std::string& text);

// The domain of an address ("shop.example.nz" for "no-reply@shop.example.nz").
std::string domainOf(const std::string& address);

// "Thu, 13 Feb 2025 21:05:09 +0000".
std::string rfc5322Date(std::time_t when);

// "<32 random hex digits@domain>".
std::string newMessageId(const std::string& domain);

// "<key@domain>", the key's characters other than letters and digits dropped (a UUID becomes 32
// hex digits), or a new random id when none is left. One stored mail keeps one Message-ID over all
// its attempts, so a receiver can drop a second copy (an attempt that timed out after the relay
// had already taken the message).
std::string messageIdFor(const std::string& key, const std::string& domain);

// One header field, "Name: value" folded at 78 columns, ending in CRLF. `value` is unstructured
// text (Subject): kept as it is when it is short printable ASCII words, else encoded-words.
std::string unstructuredHeader(const std::string& name, const std::string& value);
// One header field holding one mailbox ("From: Name <addr>"), the display name encoded as needed.
std::string mailboxHeader(const std::string& name, const Mailbox& mailbox);

// The quoted-printable form of `text` (RFC 2045): any line ending (LF, CRLF, CR) becomes CRLF,
// lines are at most 76 characters (soft breaks "=" CRLF), trailing blanks and every byte outside
// printable ASCII encoded. Always ends in CRLF (a final soft break when `text` does not end a line).
std::string quotedPrintable(const std::string& text);

// The whole message as it goes into SMTP DATA (before dot-stuffing); `brand` fills the HTML part.
std::string composeMessage(const MailMessage& message, const std::string& from, std::time_t now, const std::string& messageId,
                           const Branding& brand);

// SMTP DATA transparency (RFC 5321 4.5.2): a line starting with "." gets another; ends with the
// lone "." line. `data` must use CRLF line endings.
std::string dotStuff(const std::string& data);

} // namespace storefront::mail
