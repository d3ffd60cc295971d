#include "contact/contact_service.h"

#include "common/text.h"
#include "mail/mail_message.h"

#include <Poco/Nullable.h>
#include <Poco/String.h>

using namespace Poco::Data::Keywords;

namespace storefront::contact {

namespace {



// Reads an optional string field; records an error for a wrong type.
std::optional<std::string> field(const nlohmann::json& body, const char* name, nlohmann::json& errors) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) {
        errors[name] = "Must be text.";
        return std::nullopt;
    }
    return Poco::trim(it->get<std::string>());
}

bool hasControl(const std::string& s, bool allowNewlines) {
    for (unsigned char c : s) {
        if (allowNewlines && (c == '\n' || c == '\r' || c == '\t')) continue;
        if (c < 0x20 || c == 0x7f) return true;
    }
    return false;
}

} // namespace

std::optional<ContactSubmission> validateContact(const nlohmann::json& body, nlohmann::json& errors) {
    errors = nlohmann::json::object();
    ContactSubmission s;
    auto name = field(body, "name", errors);
    auto email = field(body, "email", errors);
    auto company = field(body, "company", errors);
    auto phone = field(body, "phone", errors);
    auto message = field(body, "message", errors);

    auto single = [&](const char* key, const std::optional<std::string>& value, std::size_t max, bool required) {
        if (errors.contains(key)) return;
        if (!value || value->empty()) {
            if (required) errors[key] = "This field is required.";
            return;
        }
        if (common::codePoints(*value) > max) errors[key] = "Must be at most " + std::to_string(max) + " characters.";
        else if (hasControl(*value, false)) errors[key] = "Must be a single line of text.";
    };
    single("name", name, ContactLimits::name, true);
    single("email", email, ContactLimits::email, true);
    single("company", company, ContactLimits::company, false);
    single("phone", phone, ContactLimits::phone, false);
    if (!errors.contains("email") && email && !mail::isValidEmailAddress(*email))
        errors["email"] = "Enter a valid email address.";
    if (!errors.contains("message")) {
        if (!message || message->empty()) errors["message"] = "This field is required.";
        else if (common::codePoints(*message) > ContactLimits::message)
            errors["message"] = "Must be at most " + std::to_string(ContactLimits::message) + " characters.";
        else if (hasControl(*message, true)) errors["message"] = "Contains characters that are not allowed.";
    }
    if (!errors.empty()) return std::nullopt;
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

std::string ContactService::submit(const ContactSubmission& submission, const std::string& clientAddress) {
    constexpr const char* kInsert =
        "INSERT INTO contact_submissions (id, name, email, company, phone, message, client_ip, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    std::string id = db::newId(), at = db::nowTimestamp();
    std::string name = submission.name, email = submission.email, message = submission.message, ip = clientAddress;
    Poco::Nullable<std::string> company, phone;
    if (submission.company) company = *submission.company;
    if (submission.phone) phone = *submission.phone;
    const auto mailMessage = salesMail(submission, salesAddress_);
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        s << db_.sql(kInsert), use(id), use(name), use(email), use(company), use(phone), use(message), use(ip),
            use(at), now;
        outbox_.enqueue(s, mailMessage, id);
    });
    return id;
}

} // namespace storefront::contact
