#include "contact/enquiry_admin.h"

#include "http/api_error.h"

namespace storefront::contact {

namespace {

nlohmann::json enquiryOrNull(const std::optional<std::string>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json toJson(const Enquiry& e) {
    return {{"id", e.id},
            {"name", e.name},
            {"email", e.email},
            {"company", enquiryOrNull(e.company)},
            {"phone", enquiryOrNull(e.phone)},
            {"message", e.message},
            {"created_at", e.createdAt},
            {"handled", e.handledAt.has_value()},
            {"handled_at", enquiryOrNull(e.handledAt)},
            {"handled_by", e.handledAt ? nlohmann::json{{"id", enquiryOrNull(e.handledBy)}, {"email", enquiryOrNull(e.handledByEmail)}}
                                       : nlohmann::json(nullptr)}};
}

Enquiry EnquiryAdmin::setHandled(const audit::Actor& actor, const std::string& id, bool handled) {
    Enquiry after;
    db_.write([&](db::Tx& tx) {
        auto before = submissions_.find(tx, id);
        if (!before) throw http::ApiError::notFound("enquiry_not_found", "No such enquiry.");
        if (before->handledAt.has_value() == handled) {
            after = std::move(*before);
            return;
        }
        submissions_.setHandled(tx, id, handled, actor.userId);
        after = *submissions_.find(tx, id);
        audit::record(tx, actor, {handled ? "enquiry.handled" : "enquiry.unhandled", "enquiry", id, toJson(*before), toJson(after)});
    });
    return after;
}

} // namespace storefront::contact
