#include "billing/provider/stripe_json.h"

#include "catalog/money.h"
#include "common/text.h"

#include <Poco/String.h>

namespace storefront::billing::stripe_json {

std::optional<std::string> str(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string() || it->get<std::string>().empty()) return std::nullopt;
    return it->get<std::string>();
}

std::optional<std::int64_t> integer(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

const nlohmann::json& member(const nlohmann::json& o, const char* key) {
    static const nlohmann::json empty = nlohmann::json::object();
    auto it = o.find(key);
    return it != o.end() && it->is_object() ? *it : empty;
}

std::optional<std::string> idOf(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end()) return std::nullopt;
    if (it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
    if (it->is_object()) return str(*it, "id");
    return std::nullopt;
}

namespace {

ProviderPaymentRef paymentOf(const nlohmann::json& object) {
    ProviderPaymentRef ref;
    ref.paymentId = idOf(object, "payment_intent");
    if (auto order = str(member(object, "metadata"), "order_id"); order && common::isUuid(*order)) ref.orderId = order;
    return ref;
}

// Stripe's refund statuses in ours: requires_action waits on the customer, as pending does.
std::string refundStatus(const std::string& stripeStatus) {
    if (stripeStatus == "succeeded" || stripeStatus == "failed" || stripeStatus == "canceled") return stripeStatus;
    return "pending";
}

} // namespace

std::optional<ProviderRefund> readRefund(const nlohmann::json& object) {
    auto id = str(object, "id");
    auto amount = integer(object, "amount");
    const auto currency = Poco::toUpper(str(object, "currency").value_or(""));
    if (!id || !amount || *amount <= 0 || !catalog::isCurrency(currency)) return std::nullopt;
    ProviderRefund r;
    r.id = *id;
    r.amount = *amount;
    r.currency = currency;
    r.status = refundStatus(str(object, "status").value_or("pending"));
    if (auto ours = str(member(object, "metadata"), "refund_id"); ours && common::isUuid(*ours)) r.ourRefundId = ours;
    r.reason = str(member(object, "metadata"), "reason");
    if (!r.reason) r.reason = str(object, "reason");
    r.payment = paymentOf(object);
    return r;
}

ProviderCharge readCharge(const nlohmann::json& charge) {
    ProviderCharge c;
    c.payment = paymentOf(charge);
    c.amountRefunded = integer(charge, "amount_refunded");
    auto list = member(charge, "refunds").find("data");
    if (list != member(charge, "refunds").end() && list->is_array())
        for (const auto& refund : *list)
            if (refund.is_object())
                if (auto r = readRefund(refund)) c.refunds.push_back(std::move(*r));
    return c;
}

std::optional<ProviderDispute> readDispute(const nlohmann::json& dispute) {
    auto id = str(dispute, "id");
    auto amount = integer(dispute, "amount");
    const auto currency = Poco::toUpper(str(dispute, "currency").value_or(""));
    if (!id || !amount || *amount < 0 || !catalog::isCurrency(currency)) return std::nullopt;
    ProviderDispute d;
    d.id = *id;
    d.amount = *amount;
    d.currency = currency;
    d.status = str(dispute, "status").value_or("needs_response");
    d.reason = str(dispute, "reason");
    d.payment = paymentOf(dispute);
    return d;
}

} // namespace storefront::billing::stripe_json
