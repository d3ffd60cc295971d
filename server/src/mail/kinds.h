#pragma once
// Every kind of mail the server sends, in one list, each with its template for the HTML part
// (mail/html_part.h): the heading over the text and the label of the button its first link
// becomes. A mail of a kind missing here still goes out (with a plain heading); the mail-on-the-wire
// test finds every kind in the sources and fails until it is listed and checked.
#include <string>
#include <vector>

namespace storefront::mail {

struct KindTemplate {
    std::string kind;    // MailMessage::kind
    std::string heading; // the title over the text
    std::string action;  // the button for the mail's first link on a line of its own; empty: no button
};

const std::vector<KindTemplate>& mailKinds();

// The template of `kind`; a generic one (the subject as the heading, no button) when it is not listed.
KindTemplate templateOf(const std::string& kind, const std::string& subject);

} // namespace storefront::mail
