#pragma once
// Where a provider's events go. Stripe's arrive at the webhook; the local test provider hands what
// the buyer did on its pages to the same inbox (billing/event_processor.h implements this), so
// both providers' events are applied by one piece of code.
#include <string>

namespace storefront::billing {

class EventSink {
public:
    virtual ~EventSink() = default;
    // Stores and applies one event in the provider's JSON. Throws when it could not be stored, so
    // the caller (as a provider would) may deliver it again.
    virtual void deliver(const std::string& provider, const std::string& payload) = 0;
};

} // namespace storefront::billing
