#include "contact/contact_service.h"

#include "common/text.h"
#include "http/body.h"
#include "mail/mail_message.h"

#include <Poco/String.h>

namespace storefront::contact {

namespace {

// The message may have line breaks and tabs, but no other control character.
bool hasControlBesidesLineBreaks(const std::string& s) {
    for (unsigned char c : s) {
        if (c == '\n' || c == '\r' || c == '\t') continue;
        if (c < 0x20 || c == 0x7f) return true;
    }
    return false;
}

// A text field, trimmed; nullopt when absent, null or of the wrong type (the body records that).
std::optional<std::string> trimmed(http::Body& body, const char* name) {
    auto value = body.optText(name);
    if (!value) return std::nullopt;
    return Poco::trim(*value);
}

} // namespace

std::optional<ContactSubmission> validateContact(const nlohmann::json& json, nlohmann::json& errors) {
    http::Body body(json);
    auto name = trimmed(body, "name");
    auto email = trimmed(body, "email");
    auto company = trimmed(body, "company");
    auto phone = trimmed(body, "phone");
    auto message = trimmed(body, "message");

    auto single = [&](const char* key, const std::optional<std::string>& value, std::size_t max, bool required) {
        if (body.failed(key)) return;
        if (!value || value->empty()) {
            if (required) body.fail(key, "This field is required.");
            return;
        }
        if (common::codePoints(*value) > max) body.fail(key, "Must be at most " + std::to_string(max) + " characters.");
        else if (!common::isOneLine(*value)) body.fail(key, "Must be a single line of text.");
    };
    single("name", name, ContactLimits::name, true);
    single("email", email, ContactLimits::email, true);
    single("company", company, ContactLimits::company, false);
    single("phone", phone, ContactLimits::phone, false);
    if (!body.failed("email") && email && !mail::isValidEmailAddress(*email)) body.fail("email", "Enter a valid email address.");
    if (!body.failed("message")) {
        if (!message || message->empty()) body.fail("message", "This field is required.");
        else if (common::codePoints(*message) > ContactLimits::message)
            body.fail("message", "Must be at most " + std::to_string(ContactLimits::message) + " characters.");
        else if (hasControlBesidesLineBreaks(*message)) body.fail("message", "Contains characters that are not allowed.");
    }
    errors = body.errors();
    if (!body.ok()) return std::nullopt;
    ContactSubmission s;
    s.name = *name;
    s.email = *email;
    if (company && !company->empty()) s.company = *company;
    if (phone && !phone->empty()) s.phone = *phone;
    s.message = *message;
    return s;
}

mail::MailMessage salesMail(const ContactSubmission& s, const std::string& salesAddress) {
    mail::MailMessage m;
    m.kind = "contact";
    m.to = salesAddress;
    m.replyTo = s.email;
    m.subject = "Contact Sales: " + s.name + (s.company ? " (" + *s.company + ")" : "");
    m.text = "A new Contact Sales enquiry arrived through the website.\n\n"
             "Name:    " + s.name + "\n"
             "Email:   " + s.email + "\n"
             "Company: " + s.company.value_or("-") + "\n"
             "Phone:   " + s.phone.value_or("-") + "\n\n"
             "Message:\n" + s.message + "\n\n"
             "We promise a response within 24 hours. Reply to this email to answer " + s.name + " directly.\n";
    return m;
}

std::string ContactService::submit(const ContactSubmission& submission, const std::string& clientAddress,
                                   const std::optional<std::string>& senderId) {
    const auto mailMessage = salesMail(submission, salesAddress_);
    std::string id;
    db_.write([&](db::Tx& tx) {
        id = submissions_.insert(tx, submission, clientAddress, std::nullopt, senderId);
        outbox_.enqueue(tx, mailMessage, id);
    });
    return id;
}

} // namespace storefront::contact
