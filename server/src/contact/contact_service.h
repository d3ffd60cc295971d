#pragma once
// Contact Sales: validate, store the submission, and queue the mail to the sales mailbox in the
// same transaction, so a mail failure can never lose a submission.
#include "contact/submission.h"
#include "contact/submission_repository.h"
#include "db/database.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::contact {

struct ContactLimits {
    static constexpr std::size_t name = 200, email = 254, company = 200, phone = 50, message = 5000;
};

// Parses and validates a request body. On failure returns nullopt and fills `fieldErrors`
// ({"email": "Enter a valid email address."}). Pure: no I/O.
std::optional<ContactSubmission> validateContact(const nlohmann::json& body, nlohmann::json& fieldErrors);

// The mail the sales team receives.
mail::MailMessage salesMail(const ContactSubmission& submission, const std::string& salesAddress);

class ContactService {
public:
    ContactService(db::Database& db, mail::Outbox& outbox, std::string salesAddress)
        : db_(db), submissions_(), outbox_(outbox), salesAddress_(std::move(salesAddress)) {}

    // Stores the submission and its mail; returns the submission id. `senderId`: the signed-in
    // sender's account, the only way a message belongs to one (the data export lists it).
    std::string submit(const ContactSubmission& submission, const std::string& clientAddress,
                       const std::optional<std::string>& senderId = std::nullopt);

private:
    db::Database& db_;
    SubmissionRepository submissions_;
    mail::Outbox& outbox_;
    std::string salesAddress_;
};

} // namespace storefront::contact
