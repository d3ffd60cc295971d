// The Stripe adapter (see stripe_provider.h): builds the form for each call, sends it over POCO's
// HTTP(S) client with the headers Stripe expects, and turns every failure into ProviderError.
#include "billing/provider/stripe_provider.h"

#include "billing/orders/rules.h"

#include "common/text.h"
#include "common/tls_socket.h"

#include <Poco/String.h>
#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/NetSSL.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>
#include <nlohmann/json.hpp>

#include <mutex>
#include <stdexcept>

namespace storefront::billing {

namespace {

using nlohmann::json;

struct Reply {
    int status = 0;
    std::string body;
    std::string requestId; // Stripe's Request-Id header: what Stripe support asks for
};

void initialiseSsl() {
    static std::once_flag once;
    std::call_once(once, [] { Poco::Net::initializeSSL(); });
}

std::string sessionPath(const std::string& sessionId) {
    if (sessionId.empty()) throw std::invalid_argument("checkout session id is empty");
    return "/v1/checkout/sessions/" + common::encodeUriComponent(sessionId);
}

// A string member of a JSON answer that must be there.
std::string required(const json& body, const char* member, const std::string& what) {
    auto it = body.find(member);
    if (it == body.end() || !it->is_string() || it->get<std::string>().empty())
        throw ProviderError("Stripe's answer to " + what + " has no " + member);
    return it->get<std::string>();
}

} // namespace

struct StripeProvider::Connection {
    std::string secretKey;
    bool https = true;
    std::string host;
    Poco::UInt16 port = 443;
    std::string basePath; // from apiBase, without a trailing slash (usually empty)
    Poco::Timespan timeout;
    Poco::Net::Context::Ptr context;

    explicit Connection(const StripeSettings& settings)
        : secretKey(settings.secretKey), timeout(settings.timeoutSeconds, 0) {
        if (secretKey.empty()) throw std::invalid_argument("Stripe secret key is empty");
        if (settings.timeoutSeconds <= 0) throw std::invalid_argument("Stripe timeout must be positive");
        Poco::URI uri;
        try {
            uri = Poco::URI(settings.apiBase);
        } catch (const Poco::SyntaxException& e) {
            throw std::invalid_argument("Stripe API base is not a URL: " + e.displayText());
        }
        if (uri.getScheme() != "https" && uri.getScheme() != "http")
            throw std::invalid_argument("Stripe API base must be an http or https URL");
        if (uri.getHost().empty() || !uri.getRawQuery().empty() || !uri.getFragment().empty())
            throw std::invalid_argument("Stripe API base must be scheme://host[:port][/path]");
        https = uri.getScheme() == "https";
        host = uri.getHost();
        port = uri.getPort();
        basePath = uri.getPath();
        while (!basePath.empty() && basePath.back() == '/')
            basePath.pop_back();
        if (https) {
            initialiseSsl();
            Poco::Net::Context::Params params;
            params.caLocation = settings.caLocation;
            params.loadDefaultCAs = settings.caLocation.empty();
            params.verificationMode = Poco::Net::Context::VERIFY_RELAXED; // a client: verify the server
            params.verificationDepth = 9;
            context = new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, params);
            context->requireMinimumProtocol(Poco::Net::Context::PROTO_TLSV1_2);
        }
    }

    // A connected socket with the timeouts set and, for https, the TLS handshake done (under the
    // same timeouts: common/tls_socket.h) and the certificate checked against `host`.
    Poco::Net::StreamSocket connect() const {
        return common::connect(host, port, timeout, https ? context : Poco::Net::Context::Ptr());
    }

    // One request on its own connection. Network failures and timeouts become ProviderError.
    Reply exchange(const std::string& method, const std::string& path, const FormBody* form,
                   const std::string& idempotencyKey) const {
        const std::string body = form ? form->encoded() : std::string();
        try {
            // Given a connected socket, the session never connects (or reconnects) by itself.
            Poco::Net::HTTPClientSession session(connect());
            session.setKeepAlive(false);
            Poco::Net::HTTPRequest request(method, basePath + path, Poco::Net::HTTPMessage::HTTP_1_1);
            request.setHost(host, port);
            request.set("Authorization", "Bearer " + secretKey);
            request.set("Stripe-Version", std::string(kStripeApiVersion));
            request.set("Accept", "application/json");
            request.setContentType("application/x-www-form-urlencoded");
            if (!idempotencyKey.empty()) request.set("Idempotency-Key", idempotencyKey);
            if (form) request.setContentLength64(static_cast<Poco::Int64>(body.size()));
            auto& out = session.sendRequest(request);
            out << body;
            out.flush();
            Poco::Net::HTTPResponse response;
            auto& in = session.receiveResponse(response);
            Reply reply;
            reply.status = static_cast<int>(response.getStatus());
            reply.requestId = response.get("Request-Id", "");
            Poco::StreamCopier::copyToString(in, reply.body);
            if (in.bad()) throw ProviderError("Stripe's answer to " + method + " " + path + " broke off");
            return reply;
        } catch (const Poco::Exception& e) {
            throw ProviderError("Stripe could not be reached (" + method + " " + path + "): " + scrub(e.displayText()));
        }
    }

    // A request whose answer must be 2xx JSON; anything else is ProviderError.
    json call(const std::string& method, const std::string& path, const FormBody* form,
              const std::string& idempotencyKey) const {
        return parse(method + " " + path, exchange(method, path, form, idempotencyKey));
    }

    json parse(const std::string& what, const Reply& reply) const {
        if (reply.status < 200 || reply.status >= 300) throw ProviderError(failure(what, reply));
        auto body = json::parse(reply.body, nullptr, false);
        if (body.is_discarded() || !body.is_object())
            throw ProviderError("Stripe's answer to " + what + " is not a JSON object");
        return body;
    }

    // "Stripe refused POST /v1/customers (HTTP 400 invalid_request_error, request req_1): <Stripe's message>"
    std::string failure(const std::string& what, const Reply& reply) const {
        std::string message;
        std::string type;
        const auto body = json::parse(reply.body, nullptr, false);
        if (body.is_object() && body.contains("error") && body["error"].is_object()) {
            const auto& error = body["error"];
            if (error.contains("message") && error["message"].is_string()) message = error["message"];
            if (error.contains("type") && error["type"].is_string()) type = error["type"];
        }
        std::string text = "Stripe refused " + what + " (HTTP " + std::to_string(reply.status);
        if (!type.empty()) text += " " + type;
        if (!reply.requestId.empty()) text += ", request " + reply.requestId;
        text += ")";
        if (!message.empty()) text += ": " + message;
        return scrub(text);
    }

    // Stripe masks keys in its messages already; this makes sure ours never reaches a log.
    std::string scrub(std::string text) const {
        static const std::string mask = "[secret key]";
        for (auto at = text.find(secretKey); at != std::string::npos; at = text.find(secretKey, at + mask.size()))
            text.replace(at, secretKey.size(), mask);
        return text;
    }
};

StripeProvider::StripeProvider(StripeSettings settings) : connection_(std::make_unique<Connection>(settings)) {}

StripeProvider::~StripeProvider() = default;

std::string StripeProvider::createCustomer(const std::string& userId, const std::string& email) {
    if (userId.empty()) throw std::invalid_argument("customer needs a user id");
    FormBody form;
    form.add({"email"}, email).add({"metadata", "user_id"}, userId);
    const auto body = connection_->call("POST", "/v1/customers", &form, "customer-" + userId);
    return required(body, "id", "POST /v1/customers");
}

CreatedSession StripeProvider::createCheckoutSession(const CheckoutRequest& request) {
    const auto form = checkoutSessionForm(request);
    const auto body = connection_->call("POST", "/v1/checkout/sessions", &form, "checkout-" + request.checkoutId);
    return {required(body, "id", "POST /v1/checkout/sessions"), required(body, "url", "POST /v1/checkout/sessions")};
}

void StripeProvider::expireCheckoutSession(const std::string& sessionId) {
    const auto path = sessionPath(sessionId) + "/expire";
    const FormBody none;
    const auto reply = connection_->exchange("POST", path, &none, "expire-" + sessionId);
    if (reply.status >= 200 && reply.status < 300) return;
    if (reply.status == 400) {
        // Stripe refuses to expire a session that is no longer open. Whether that was the reason is
        // read from the session itself, not from the wording of the error.
        const auto session = connection_->call("GET", sessionPath(sessionId), nullptr, "");
        const auto status = session.value("status", std::string());
        if (status == "complete" || status == "expired") return;
    }
    throw ProviderError(connection_->failure("POST " + path, reply));
}

std::string StripeProvider::createPortalSession(const std::string& customerId, const std::string& returnUrl) {
    if (customerId.empty()) throw std::invalid_argument("portal session needs a customer");
    FormBody form;
    form.add({"customer"}, customerId).add({"return_url"}, returnUrl);
    // Portal sessions are cheap and short-lived, so every call makes a new one under a fresh key
    // (a key reused with another return_url would be refused).
    const auto body =
        connection_->call("POST", "/v1/billing_portal/sessions", &form, "portal-" + customerId + "-" + randomHex(12));
    return required(body, "url", "POST /v1/billing_portal/sessions");
}

// POST /v1/refunds against the payment intent, under the idempotency key "refund-<our refund id>":
// a retry after a timeout or a double click gets the same refund back, never a second one.
CreatedRefund StripeProvider::createRefund(const RefundRequest& request) {
    if (request.refundId.empty() || request.paymentId.empty() || request.amount <= 0)
        throw std::invalid_argument("a refund needs its id, a payment and a positive amount");
    FormBody form;
    form.add({"payment_intent"}, request.paymentId);
    form.add({"amount"}, std::to_string(request.amount));
    form.add({"metadata", "refund_id"}, request.refundId);
    if (!request.orderId.empty()) form.add({"metadata", "order_id"}, request.orderId);
    if (!request.subscriptionId.empty()) form.add({"metadata", "subscription_id"}, request.subscriptionId);
    if (!request.reason.empty()) form.add({"metadata", "reason"}, request.reason);
    const auto body = connection_->call("POST", "/v1/refunds", &form, "refund-" + request.refundId);
    return {required(body, "id", "POST /v1/refunds"), required(body, "status", "POST /v1/refunds")};
}

void StripeProvider::cancelSubscriptionNow(const std::string& subscriptionId) {
    if (subscriptionId.empty()) throw std::invalid_argument("cancelling needs a subscription id");
    const auto path = "/v1/subscriptions/" + common::encodeUriComponent(subscriptionId);
    const auto reply = connection_->exchange("DELETE", path, nullptr, ""); // DELETE is idempotent: Stripe takes no key
    if (reply.status >= 200 && reply.status < 300) return;
    if (reply.status == 400 || reply.status == 404) {
        // Already canceled (or ended): whether that is so is read from the subscription itself.
        const auto current = connection_->exchange("GET", path, nullptr, "");
        if (current.status >= 200 && current.status < 300) {
            const auto body = nlohmann::json::parse(current.body, nullptr, false);
            const auto status = body.is_object() ? body.value("status", std::string()) : std::string();
            if (status == "canceled" || status == "incomplete_expired") return;
        }
    }
    throw ProviderError(connection_->failure("DELETE " + path, reply));
}

void StripeProvider::setCancelAtPeriodEnd(const std::string& subscriptionId, bool cancel) {
    if (subscriptionId.empty()) throw std::invalid_argument("scheduling a cancellation needs a subscription id");
    const auto path = "/v1/subscriptions/" + common::encodeUriComponent(subscriptionId);
    FormBody form;
    form.add({"cancel_at_period_end"}, cancel ? "true" : "false");
    // A fresh key each time: cancel, resume and cancel again are three different requests.
    connection_->call("POST", path, &form, "cancel-at-period-end-" + subscriptionId + "-" + randomHex(12));
}

bool StripeProvider::changePlan(const PlanChange& change) {
    if (change.subscriptionId.empty() || change.changeId.empty()) throw std::invalid_argument("a plan change needs its ids");
    const auto path = "/v1/subscriptions/" + common::encodeUriComponent(change.subscriptionId);
    const auto current = connection_->call("GET", path, nullptr, "");
    // The item to switch, and the Stripe product its inline price belongs to.
    std::string itemId, productId;
    if (auto items = current.find("items"); items != current.end() && items->is_object())
        if (auto data = items->find("data"); data != items->end() && data->is_array() && !data->empty()) {
            const auto& item = data->front();
            itemId = item.value("id", std::string());
            if (auto price = item.find("price"); price != item.end() && price->is_object()) {
                auto product = price->find("product");
                if (product != price->end() && product->is_string()) productId = *product;
                else if (product != price->end() && product->is_object()) productId = product->value("id", std::string());
            }
        }
    if (itemId.empty() || productId.empty()) throw ProviderError("Stripe's subscription " + change.subscriptionId + " has no item to change");
    FormBody form;
    form.add({"items", "0", "id"}, itemId);
    form.add({"items", "0", "price_data", "currency"}, Poco::toLower(change.line.currency));
    form.add({"items", "0", "price_data", "product"}, productId);
    form.add({"items", "0", "price_data", "unit_amount"}, std::to_string(change.line.unitAmount));
    form.add({"items", "0", "price_data", "recurring", "interval"}, change.line.interval);
    form.add({"items", "0", "price_data", "recurring", "interval_count"}, std::to_string(change.line.intervalCount));
    form.add({"proration_behavior"}, "always_invoice");
    form.add({"payment_behavior"}, "pending_if_incomplete");
    const auto reply = connection_->exchange("POST", path, &form, "plan-" + change.changeId);
    if (reply.status == 402) return false; // the card was declined: nothing changed
    const auto body = connection_->parse("POST " + path, reply);
    auto pending = body.find("pending_update");
    return pending == body.end() || pending->is_null();
}

FormBody checkoutSessionForm(const CheckoutRequest& request) {
    const bool subscription = request.mode == "subscription";
    if (!subscription && request.mode != "payment")
        throw std::invalid_argument("checkout mode must be payment or subscription");
    if (request.checkoutId.empty()) throw std::invalid_argument("checkout needs its checkout id");
    if (subscription && request.line.interval.empty())
        throw std::invalid_argument("a subscription checkout needs a billing interval");

    FormBody form;
    form.add({"mode"}, request.mode);
    if (!request.customerId.empty()) form.add({"customer"}, request.customerId);
    form.add({"client_reference_id"}, request.checkoutId);
    form.add({"success_url"}, request.successUrl);
    form.add({"cancel_url"}, request.cancelUrl);
    if (request.expiresAt > 0) form.add({"expires_at"}, std::to_string(request.expiresAt));
    form.addEach({"metadata"}, request.metadata);

    const auto& line = request.line;
    form.add({"line_items", "0", "quantity"}, std::to_string(line.quantity));
    form.add({"line_items", "0", "price_data", "currency"}, Poco::toLower(line.currency));
    form.add({"line_items", "0", "price_data", "unit_amount"}, std::to_string(line.unitAmount));
    form.add({"line_items", "0", "price_data", "product_data", "name"}, line.name);
    if (subscription) {
        form.add({"line_items", "0", "price_data", "recurring", "interval"}, line.interval);
        form.add({"line_items", "0", "price_data", "recurring", "interval_count"}, std::to_string(line.intervalCount));
        form.addEach({"subscription_data", "metadata"}, request.metadata);
        if (request.trialDays > 0) form.add({"subscription_data", "trial_period_days"}, std::to_string(request.trialDays));
    } else {
        form.addEach({"payment_intent_data", "metadata"}, request.metadata);
    }
    // A physical product: Stripe collects where it ships and a phone for the courier.
    for (std::size_t i = 0; i < request.shippingCountries.size(); ++i)
        form.add({"shipping_address_collection", "allowed_countries", std::to_string(i)}, request.shippingCountries[i]);
    if (!request.shippingCountries.empty()) form.add({"phone_number_collection", "enabled"}, "true");
    return form;
}

} // namespace storefront::billing
