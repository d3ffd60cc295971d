// Staff's refund of a subscription's latest payment, claimed like every other action on it.
#include "billing/subscriptions/subscription_service.h"

#include "catalog/money.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

namespace storefront::billing {

using http::ApiError;
using http::ErrorKind;

SubscriptionRefund SubscriptionService::refund(const audit::Actor& actor, const std::string& id, std::int64_t amount,
                                               const std::optional<std::string>& reason,
                                               const std::optional<std::string>& clientKey) {
    std::optional<SubscriptionRefund> row;
    std::optional<SubscriptionPayment> paid;
    std::optional<Claim> claim;
    bool repeat = false;
    db_.write([&](db::Tx& tx) {
        // Claimed first, under the subscription's lock: what is left to refund is read with no
        // other refund or action of this subscription in between (a second one is 409 action_in_progress).
        if (!subscriptions_.lock(tx, id)) throw ApiError::notFound("subscription_not_found", "No such subscription.");
        claim = claims_.claim(tx, {record_type::kSubscription, id, "refund", std::nullopt,
                                   nlohmann::json{{"amount", amount}, {"reason", reason.value_or("")}}.dump()});
        paid = payments_.latest(tx, id);
        if (!paid) throw ApiError(ErrorKind::Conflict, "nothing_to_refund", "This subscription has no payment to refund.");
        if (clientKey)
            if (auto existing = payments_.refundByClientKey(tx, paid->id, *clientKey)) {
                row = existing;
                repeat = existing->status != "requested";
                if (repeat) claims_.finish(tx, claim->id);
                return;
            }
        const auto left = paid->amount - payments_.counted(tx, paid->id);
        if (left <= 0) throw ApiError(ErrorKind::Conflict, "already_refunded", "The latest payment has been refunded in full.");
        if (amount > left) {
            const auto most = catalog::formatMoney(left, paid->currency) + " " + paid->currency;
            throw ApiError::validation({{"amount", "At most " + most + " of the latest payment can be refunded."}},
                                       "At most " + most + " of the latest payment can be refunded.");
        }
        if (!paid->providerPaymentId)
            throw ApiError(ErrorKind::Conflict, "payment_not_known",
                           "The payment provider has not yet said which payment paid this invoice. Try again in a minute.");
        NewSubscriptionRefund n;
        n.paymentId = paid->id;
        n.amount = amount;
        n.currency = paid->currency;
        n.reason = reason;
        n.status = "requested";
        n.source = "staff";
        n.clientKey = clientKey;
        n.actorId = actor.userId;
        n.actorEmail = actor.email;
        row = payments_.refund(tx, payments_.insertRefund(tx, n));
    });
    if (repeat) return *row;

    // Outside any transaction: the provider may take seconds. A failure leaves the row requested.
    CreatedRefund created;
    try {
        created = provider_.createRefund({row->id, "", paid->providerPaymentId.value_or(""), row->amount, row->reason.value_or(""), id});
    } catch (const ProviderError& e) {
        Poco::Logger::get("billing").warning("refund %s of subscription %s: %s", row->id, id, std::string(e.what()));
        claims_.fail(db_, claim->id);
        throw ApiError(ErrorKind::BadGateway, "payment_provider_error",
                       "The payment provider did not confirm the refund. Try again: it will not be refunded twice.");
    }
    db_.write([&](db::Tx& tx) {
        subscriptions_.lock(tx, id);
        claims_.finish(tx, claim->id);
        auto current = payments_.refund(tx, row->id);
        auto payment = payments_.find(tx, paid->id);
        if (!current || !payment) return;
        if (current->status == "requested") refundBook_.settle(tx, *current, *payment, created.status, created.id, std::nullopt);
        row = payments_.refund(tx, row->id);
        audit::record(tx, actor, {"subscription.refunded", "subscription", id, nullptr,
                                  {{"refund_id", row->id}, {"amount", row->amount}, {"currency", row->currency}, {"status", row->status}},
                                  {{"reason", row->reason ? nlohmann::json(*row->reason) : nlohmann::json(nullptr)},
                                   {"provider_invoice_id", payment->providerInvoiceId}}});
    });
    return *row;
}

} // namespace storefront::billing
