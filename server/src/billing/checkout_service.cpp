#include "billing/checkout_service.h"

#include "billing/orders/lifecycle.h"
#include "auth/user_repository.h"
#include "billing/orders/rules.h"
#include "catalog/stock_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>
#include <Poco/Timestamp.h>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::billing {

namespace {

constexpr int kMaxQuantity = 99;
// Stripe refuses a Checkout Session that expires sooner than 30 minutes from now.
constexpr int kStripeMinimumExpirySeconds = 31 * 60;

ApiError invalid(const char* field, const std::string& message) {
    return ApiError::validation({{field, message}}, message);
}

ApiError providerFailed(const std::string& detail) {
    Poco::Logger::get("billing").error("payment provider failed: %s", detail);
    return ApiError(ErrorKind::BadGateway, "payment_provider_error",
                    "The payment provider could not start the checkout. Nothing was charged; please try again.");
}

std::string stockMessage(std::int64_t left) {
    if (left <= 0) return "This item is currently out of stock.";
    return "Only " + std::to_string(left) + " left in stock.";
}

// `path` with `name=value` added to its query.
std::string withParam(const std::string& path, const std::string& name, const std::string& value) {
    return path + (path.find('?') == std::string::npos ? "?" : "&") + name + "=" + value;
}

} // namespace

std::string CheckoutService::customerFor(const Buyer& buyer) {
    const std::string provider = provider_.name();
    if (auto existing = customers_.find(buyer.userId, provider)) return *existing;
    std::string created;
    try {
        created = provider_.createCustomer(buyer.userId, buyer.email);
    } catch (const ProviderError& e) {
        throw providerFailed(e.what());
    }
    customers_.insert(buyer.userId, provider, created);
    // A concurrent first checkout may have stored its customer first.
    return customers_.find(buyer.userId, provider).value_or(created);
}

CheckoutService::Purchase CheckoutService::priced(const CheckoutInput& input) {
    auto product = products_.findActiveBySlug(input.productSlug);
    if (!product) throw ApiError::notFound("product_not_found", "No such product.");
    if (product->actionType && *product->actionType == "none")
        throw ApiError(ErrorKind::Conflict, "not_for_sale", "This product is not for sale yet.");

    Purchase purchase{*product, {}, "payment", std::nullopt, 1, false};
    if (product->type == "subscription") {
        if (!input.priceId) throw invalid("priceId", "Choose a pricing plan.");
        const catalog::PricingPlan* plan = nullptr;
        for (const auto& p : product->plans)
            if (p.id == *input.priceId) plan = &p;
        if (!plan) throw invalid("priceId", "That pricing plan does not belong to this product.");
        if (input.quantity && *input.quantity != 1) throw invalid("quantity", "A subscription is bought one at a time.");
        purchase.mode = "subscription";
        purchase.planId = plan->id;
        purchase.line = {product->name + " (" + plan->name + ")", plan->priceAmount, plan->currency, 1,
                         plan->billingFrequencyUnit, plan->billingFrequencyValue};
        purchase.trialDays = plan->trialDays;
        return purchase;
    }
    if (input.priceId) throw invalid("priceId", "This product has no pricing plans; leave priceId out.");
    purchase.quantity = input.quantity.value_or(1);
    if (purchase.quantity < 1 || purchase.quantity > kMaxQuantity)
        throw invalid("quantity", "Choose a quantity from 1 to " + std::to_string(kMaxQuantity) + ".");
    if (catalog::isSoldOut(*product)) throw ApiError(ErrorKind::Conflict, "insufficient_stock", stockMessage(0));
    purchase.line = {product->name, product->priceNzd, "NZD", purchase.quantity, "", 1};
    purchase.tracked = product->trackInventory && product->stockQuantity.has_value();
    return purchase;
}

void CheckoutService::reserve(const Buyer& buyer, Purchase& purchase, CheckoutRequest& request) {
    const auto& product = purchase.product;
    const int planTrial = purchase.trialDays;
    db_.write([&](db::Tx& tx) {
        // The buyer's row is held until this commits: closing the account waits for it, and a
        // checkout started after the closing finds the account closed. A trial checkout holds it
        // exclusively, so two of them decide one after the other.
        const auto lock = planTrial > 0 ? auth::UserRepository::RowLock::Exclusive : auth::UserRepository::RowLock::Share;
        if (auth::UserRepository().lockPresence(tx, buyer.userId, lock) != auth::UserRepository::Presence::Open)
            throw ApiError::notFound("user_not_found", "User not found");
        // One trial per customer and product, from committed rows under that lock: a trial had,
        // or one in a checkout not given up, makes this checkout a paid one.
        purchase.trialDays = planTrial;
        if (planTrial > 0 && (subscriptions_.hadTrial(tx.session(), buyer.userId, product.id) ||
                              checkouts_.trialTaken(tx, buyer.userId, product.id)))
            purchase.trialDays = 0;
        request.trialDays = purchase.trialDays;
        // A trial charges nothing today: the order is for nothing, its line says so.
        const bool trial = purchase.trialDays > 0;
        const std::int64_t unit = trial ? 0 : purchase.line.unitAmount;
        const std::int64_t total = unit * purchase.quantity;
        const std::string name = trial ? purchase.line.name + " - " + std::to_string(purchase.trialDays) + "-day free trial"
                                       : purchase.line.name;
        const auto orderId = orders_.insert(tx, {buyer.userId, "pending", total, purchase.line.currency, buyer.email, std::nullopt});
        orders_.insertItem(tx, *orderId, {product.id, purchase.planId, name, purchase.quantity, unit});
        checkouts_.insert(tx, {request.checkoutId, buyer.userId, *orderId, product.id, purchase.planId, purchase.mode,
                               purchase.quantity, total, purchase.line.currency, provider_.name(), request.successUrl,
                               request.cancelUrl, purchase.tracked ? purchase.quantity : 0,
                               purchase.tracked ? "reserved" : "none", db::timestampFromEpoch(request.expiresAt),
                               !request.shippingCountries.empty(), purchase.trialDays});
        // The stock last: every buyer of the product queues on its row, so it is held only for the
        // commit (bench/flash_sale.py: taken first, it was held through four more round trips).
        if (purchase.tracked && !catalog::takeStock(tx, product.id, purchase.quantity))
            throw ApiError(ErrorKind::Conflict, "insufficient_stock", stockMessage(catalog::stockLeft(tx, product.id)));
    });
}

CheckoutStarted CheckoutService::start(const Buyer& buyer, const CheckoutInput& input) {
    auto purchase = priced(input);
    const auto& product = purchase.product;
    if (purchase.mode == "subscription") {
        auto s = db_.session();
        if (subscriptions_.holds(s, buyer.userId, product.id))
            throw ApiError(ErrorKind::Conflict, "already_subscribed", "You already subscribe to " + product.name + ".");
    }

    CheckoutRequest request;
    request.checkoutId = db::newId();
    request.mode = purchase.mode;
    request.customerId = customerFor(buyer);
    request.line = purchase.line;
    request.trialDays = purchase.trialDays;
    const int expiry = provider_.name() == "stripe" ? std::max(settings_.expirySeconds, kStripeMinimumExpirySeconds)
                                                    : settings_.expirySeconds;
    request.expiresAt = db_.clock().epochSeconds() + expiry;
    request.successUrl = settings_.publicUrl + withParam(input.returnPath.value_or("/dashboard"), "checkout", request.checkoutId);
    request.cancelUrl = settings_.publicUrl +
                        withParam(input.returnPath.value_or("/checkout/" + product.slug), "cancelled", request.checkoutId);
    request.metadata = {{"checkout_id", request.checkoutId}, {"user_id", buyer.userId}, {"product_id", product.id}};
    if (purchase.planId) request.metadata["pricing_plan_id"] = *purchase.planId;
    // A physical product ships: the payment page collects the address and phone (never for digital).
    if (product.type == "physical") request.shippingCountries = settings_.shippingCountries;

    reserve(buyer, purchase, request);

    CreatedSession session;
    try {
        session = provider_.createCheckoutSession(request);
    } catch (const ProviderError& e) {
        releaseUnopened(request.checkoutId);
        throw providerFailed(e.what());
    }
    checkouts_.linkProviderSession(request.checkoutId, session.id, session.url);
    // The account was closed while the provider was opening the session: the closing expired our
    // checkout, so the provider's must not stay payable either.
    if (checkouts_.status(request.checkoutId) == "expired") {
        expireAtProvider({session.id});
        throw ApiError::notFound("user_not_found", "User not found");
    }
    return {session.id, session.url, request.checkoutId};
}

void CheckoutService::releaseUnopened(const std::string& checkoutId) {
    db_.write([&](db::Tx& tx) {
        // The order row first (the lock order of every status change: order, checkout, stock).
        if (auto checkout = checkouts_.findById(tx, checkoutId, provider_.name())) orders_.lock(tx, checkout->orderId);
        auto released = checkouts_.expireUnopened(tx, checkoutId);
        if (!released) return;
        cancelUnpaid(tx, orders_, released->orderId, source::kSystem, "Checkout given up before the provider opened it");
        if (released->stockReleased && released->productId && released->stockReserved > 0)
            catalog::giveStock(tx, *released->productId, released->stockReserved);
    });
}

std::string CheckoutService::cancel(const std::string& userId, const std::string& checkoutId) {
    auto checkout = checkouts_.progress(userId, checkoutId);
    if (!checkout) throw ApiError::notFound("checkout_not_found", "No such checkout.");
    if (checkout->orderStatus == "paid" || checkout->status == "completed")
        throw ApiError(ErrorKind::Conflict, "checkout_closed", "This checkout was completed and can no longer be cancelled.");
    if (checkout->status == "expired") return checkout->status;
    if (!checkout->providerSessionId) {
        releaseUnopened(checkoutId);
        return "expired";
    }
    try {
        provider_.expireCheckoutSession(*checkout->providerSessionId);
    } catch (const ProviderError& e) {
        throw providerFailed(e.what());
    }
    return checkouts_.status(checkoutId).value_or("");
}

std::string CheckoutService::portal(const std::string& userId, const std::string& returnPath) {
    auto customer = customers_.find(userId, provider_.name());
    if (!customer)
        throw ApiError::notFound("no_billing_account", "There is no billing account yet: subscribe or buy something first.");
    try {
        return provider_.createPortalSession(*customer, settings_.publicUrl + returnPath);
    } catch (const ProviderError& e) {
        throw providerFailed(e.what());
    }
}

std::vector<std::string> CheckoutService::abandonAllOpen(db::Tx& tx, const std::string& userId) {
    std::vector<std::string> sessions;
    bool stockBack = false;
    for (const auto& orderId : checkouts_.openOrdersOf(tx, userId)) {
        auto state = orders_.lock(tx, orderId); // the order first, as every status change locks
        if (!state) continue;
        for (const auto& r : checkouts_.releaseReservation(tx, orderId)) {
            catalog::giveStock(tx, r.productId, r.quantity);
            stockBack = true;
        }
        for (const auto& [provider, sessionId] : checkouts_.expireOpen(tx, orderId))
            if (sessionId && provider == provider_.name()) sessions.push_back(*sessionId);
        if (state->status != "pending") continue; // paid meanwhile: the order stands (and is anonymised)
        moveOrder(tx, orders_, orderId, OrderPath::Customer, state->status, "cancelled", source::kCustomer, false, {});
        orders_.addHistory(tx, {orderId, state->status, "cancelled", source::kCustomer, std::nullopt, std::nullopt,
                                "Cancelled: the customer closed their account"});
    }
    if (stockBack) tx.notify(db::topic::kCatalog);
    return sessions;
}

void CheckoutService::expireAtProvider(const std::vector<std::string>& sessionIds) {
    for (const auto& id : sessionIds) {
        try {
            provider_.expireCheckoutSession(id);
        } catch (const std::exception& e) {
            // Our checkout is expired and its order cancelled: a payment that still arrives is a
            // late payment on a cancelled order, for staff to refund.
            Poco::Logger::get("billing").warning("could not expire checkout session %s at the provider: %s", id,
                                                 std::string(e.what()));
        }
    }
}

int CheckoutService::expireDue() {
    constexpr int kBatch = 100;
    int expired = 0;
    for (const auto& [id, sessionId] :
         checkouts_.due(provider_.name(), db_.clock().timestampAfter(-settings_.providerGraceSeconds), kBatch)) {
        try {
            if (sessionId) provider_.expireCheckoutSession(*sessionId);
            else releaseUnopened(id);
            ++expired;
        } catch (const std::exception& e) {
            Poco::Logger::get("billing").warning("could not expire checkout %s: %s", id, std::string(e.what()));
        }
    }
    return expired;
}

} // namespace storefront::billing
