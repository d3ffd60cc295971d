#pragma once
// The payment-event inbox. Every provider event (Stripe's webhook, or the local test provider
// in-process) comes through ingest(): it is stored under its unique id in the same transaction as
// its effect, so a duplicate delivery changes nothing, and its effects are written so that events
// arriving in any order end in the same state (docs/billing.md, "Rules the server enforces").
#include "db/database.h"
#include "mail/outbox.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace storefront::billing {

// The payload is not a provider event (no id, type, created or data.object): answered 400.
class MalformedEvent : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

class EventProcessor {
public:
    enum class Outcome { Applied, Ignored, Duplicate };

    // `mailQueued` wakes the mail job; `stockChanged` drops cached catalogue responses.
    EventProcessor(db::Database& db, mail::Outbox& outbox, std::function<void()> mailQueued, std::string publicUrl,
                   std::function<void()> stockChanged = {})
        : db_(db), outbox_(outbox), mailQueued_(std::move(mailQueued)), publicUrl_(std::move(publicUrl)),
          stockChanged_(std::move(stockChanged)) {}

    // Stores and applies one event from `provider` ("stripe" | "local"). Throws MalformedEvent;
    // any other exception means nothing was stored and the provider should deliver it again.
    Outcome ingest(const std::string& provider, const std::string& payload);

private:
    bool apply(Poco::Data::Session& s, const std::string& provider, const std::string& type,
               const nlohmann::json& object, const std::string& eventAt, bool& mailQueued, bool& stockChanged);

    db::Database& db_;
    mail::Outbox& outbox_;
    std::function<void()> mailQueued_;
    std::string publicUrl_;
    std::function<void()> stockChanged_;
};

const char* outcomeName(EventProcessor::Outcome outcome);

} // namespace storefront::billing
