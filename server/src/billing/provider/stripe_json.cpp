#include "billing/provider/stripe_json.h"

#include "catalog/money.h"
#include "common/text.h"

#include <Poco/String.h>

#include <algorithm>

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

std::optional<std::string> trimmedText(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return std::nullopt;
    auto value = Poco::trim(it->get<std::string>());
    if (value.empty()) return std::nullopt;
    return value;
}


// At most `limit` code points of valid UTF-8 (a provider's longer value is cut, never refused:
// the money has been taken).
std::string clipped(const std::string& value, std::size_t limit) {
    std::size_t points = 0, i = 0;
    for (; i < value.size(); ++i) {
        if ((static_cast<unsigned char>(value[i]) & 0xC0) != 0x80) {
            if (points == limit) break;
            ++points;
        }
    }
    return value.substr(0, i);
}

std::optional<std::string> clipped(const std::optional<std::string>& value, std::size_t limit) {
    if (!value) return std::nullopt;
    return clipped(*value, limit);
}


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

std::string statusFromStripe(const std::string& s) {
    if (s == "active") return "active";
    if (s == "trialing") return "trialing";
    if (s == "past_due" || s == "unpaid") return "past_due";
    if (s == "canceled") return "cancelled";
    if (s == "incomplete_expired") return "expired";
    return "pending"; // incomplete, paused, and anything new
}

std::string stripeStatusOf(const std::string& status) {
    if (status == "cancelled") return "canceled";
    if (status == "expired") return "incomplete_expired";
    if (status == "pending") return "incomplete";
    return status; // active, trialing, past_due are Stripe's words too
}

namespace {

// The latest (or earliest) of an integer member across a list's items.
std::optional<std::int64_t> acrossItems(const nlohmann::json& list, const char* outer, const char* key, bool latest) {
    std::optional<std::int64_t> found;
    auto items = list.find("data");
    if (items == list.end() || !items->is_array()) return found;
    for (const auto& item : *items) {
        const auto& holder = outer ? member(item, outer) : item;
        if (auto v = integer(holder, key)) found = latest ? std::max(found.value_or(*v), *v) : std::min(found.value_or(*v), *v);
    }
    return found;
}

} // namespace

std::optional<std::int64_t> periodStart(const nlohmann::json& subscription) {
    if (auto start = acrossItems(member(subscription, "items"), nullptr, "current_period_start", false)) return start;
    return integer(subscription, "current_period_start");
}

std::optional<std::int64_t> periodEnd(const nlohmann::json& subscription) {
    if (auto end = acrossItems(member(subscription, "items"), nullptr, "current_period_end", true)) return end;
    return integer(subscription, "current_period_end");
}

std::optional<std::string> invoiceSubscription(const nlohmann::json& invoice) {
    if (auto id = idOf(member(member(invoice, "parent"), "subscription_details"), "subscription")) return id;
    return idOf(invoice, "subscription");
}

std::optional<std::int64_t> invoicePeriodEnd(const nlohmann::json& invoice) {
    return acrossItems(member(invoice, "lines"), "period", "end", true);
}

std::optional<std::string> invoicePaymentIntent(const nlohmann::json& invoice) {
    const auto& payments = member(invoice, "payments");
    auto data = payments.find("data");
    if (data != payments.end() && data->is_array())
        for (const auto& p : *data)
            if (auto id = idOf(member(p, "payment"), "payment_intent")) return id;
    return idOf(invoice, "payment_intent");
}

std::optional<ShippingAddress> shippingFromSession(const nlohmann::json& session) {
    // The pinned version first; older versions' top-level shipping_details (or shipping) after.
    const nlohmann::json* details = &member(member(session, "collected_information"), "shipping_details");
    if (details->empty()) details = &member(session, "shipping_details");
    if (details->empty()) details = &member(session, "shipping");
    const auto& address = member(*details, "address");
    auto line1 = trimmedText(address, "line1");
    auto country = trimmedText(address, "country");
    if (!line1 || !country) return std::nullopt;
    ShippingAddress a;
    a.name = clipped(trimmedText(*details, "name").value_or(""), kMaxAddressLine);
    a.line1 = clipped(*line1, kMaxAddressLine);
    a.line2 = clipped(trimmedText(address, "line2"), kMaxAddressLine);
    a.city = clipped(trimmedText(address, "city").value_or(""), kMaxAddressLine);
    a.state = clipped(trimmedText(address, "state"), kMaxAddressLine);
    a.postalCode = clipped(trimmedText(address, "postal_code").value_or(""), kMaxPostalCode);
    a.country = Poco::toUpper(clipped(*country, 2));
    if (a.country.size() != 2 || !std::all_of(a.country.begin(), a.country.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
        return std::nullopt;
    auto phone = trimmedText(member(session, "customer_details"), "phone");
    if (!phone) phone = trimmedText(*details, "phone");
    a.phone = clipped(phone, kMaxPhone);
    return a;
}

void addToSession(nlohmann::json& session, const ShippingAddress& a) {
    auto orNull = [](const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    session["collected_information"] = {
        {"shipping_details",
         {{"name", a.name},
          {"address",
           {{"line1", a.line1},
            {"line2", orNull(a.line2)},
            {"city", a.city},
            {"state", orNull(a.state)},
            {"postal_code", a.postalCode},
            {"country", a.country}}}}}};
    if (!session.contains("customer_details") || !session["customer_details"].is_object())
        session["customer_details"] = nlohmann::json::object();
    session["customer_details"]["phone"] = orNull(a.phone);
}

} // namespace storefront::billing::stripe_json
