#pragma once
// The HTML part of every mail (multipart/alternative beside the plain text): the kind's template
// (mail/kinds.h) in one layout, rendered from the plain text so both parts say the same and carry
// the same links. The layout: the site's name as a text logo, the heading, the text (paragraphs,
// indented lines as a panel, the first link on a line of its own as a button), and a footer with
// the company's legal name and address. Inline styles only, no images, no scripts; every value is
// escaped.
#include "mail/mail_message.h"

#include <string>
#include <string_view>

namespace storefront::mail {

// Who the mail is from, as the footer and the logo show it (app/config.cpp fills it).
struct Branding {
    std::string siteName = "Signalcraft"; // STOREFRONT_SITE_NAME
    std::string legalName;                // STOREFRONT_COMPANY_LEGAL_NAME
    std::string address;                  // STOREFRONT_COMPANY_ADDRESS
    std::string publicUrl;                // STOREFRONT_PUBLIC_URL
};

// `text` with & < > " ' as character references.
std::string escapeHtml(std::string_view text);

// The whole HTML document of `message`.
std::string renderHtml(const MailMessage& message, const Branding& brand);

} // namespace storefront::mail
