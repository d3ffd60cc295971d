#include "billing/checkout_service.h"

#include "billing/rules.h"
#include "catalog/stock.h"
#include "db/row.h"
#include "http/api_error.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Statement.h>
#include <Poco/Logger.h>
#include <Poco/Nullable.h>
#include <Poco/Timestamp.h>

using namespace Poco::Data::Keywords;
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

struct Reserved {
    std::string checkoutId;
    std::string orderId;
};

} // namespace

std::string CheckoutService::customerFor(const Buyer& buyer) {
    const std::string provider = provider_.name();
    auto lookup = [&]() -> std::optional<std::string> {
        auto s = db_.session();
        Poco::Data::Statement st(s);
        std::string u = buyer.userId, p = provider;
        st << db_.sql("SELECT provider_customer_id FROM payment_customers WHERE user_id = ? AND provider = ?"), use(u), use(p);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() == 0) return std::nullopt;
        return db::Row(rs, 0).text("provider_customer_id");
    };
    if (auto existing = lookup()) return *existing;
    std::string created;
    try {
        created = provider_.createCustomer(buyer.userId, buyer.email);
    } catch (const ProviderError& e) {
        throw providerFailed(e.what());
    }
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string u = buyer.userId, p = provider, c = created, at = db::nowTimestamp();
        s << db_.sql("INSERT INTO payment_customers (user_id, provider, provider_customer_id, created_at) VALUES (?, ?, ?, ?) "
                     "ON CONFLICT (user_id, provider) DO NOTHING"),
            use(u), use(p), use(c), use(at), now;
    });
    return lookup().value_or(created); // a concurrent first checkout may have stored its customer first
}

CheckoutStarted CheckoutService::start(const Buyer& buyer, const CheckoutInput& input) {
    auto product = products_.findActiveBySlug(input.productSlug);
    if (!product) throw ApiError::notFound("product_not_found", "No such product.");
    if (product->actionType && *product->actionType == "none")
        throw ApiError(ErrorKind::Conflict, "not_for_sale", "This product is not for sale yet.");

    CheckoutLine line;
    std::string mode, planId;
    int quantity = 1;
    if (product->type == "subscription") {
        if (!input.priceId) throw invalid("priceId", "Choose a pricing plan.");
        const catalog::PricingPlan* plan = nullptr;
        for (const auto& p : product->plans)
            if (p.id == *input.priceId) plan = &p;
        if (!plan) throw invalid("priceId", "That pricing plan does not belong to this product.");
        if (input.quantity && *input.quantity != 1) throw invalid("quantity", "A subscription is bought one at a time.");
        mode = "subscription";
        planId = plan->id;
        line = {product->name + " (" + plan->name + ")", plan->priceAmount, plan->currency, 1, plan->billingFrequencyUnit,
                plan->billingFrequencyValue};
    } else {
        if (input.priceId) throw invalid("priceId", "This product has no pricing plans; leave priceId out.");
        quantity = input.quantity.value_or(1);
        if (quantity < 1 || quantity > kMaxQuantity)
            throw invalid("quantity", "Choose a quantity from 1 to " + std::to_string(kMaxQuantity) + ".");
        if (catalog::isSoldOut(*product))
            throw ApiError(ErrorKind::Conflict, "insufficient_stock", stockMessage(0));
        mode = "payment";
        line = {product->name, product->priceNzd, "NZD", quantity, "", 1};
    }

    if (mode == "subscription") {
        auto s = db_.session();
        Poco::Data::Statement st(s);
        std::string u = buyer.userId, p = product->id;
        st << db_.sql("SELECT id FROM subscriptions WHERE user_id = ? AND product_id = ? AND status IN ('active', 'trialing')"),
            use(u), use(p);
        st.execute();
        if (Poco::Data::RecordSet(st).rowCount() > 0)
            throw ApiError(ErrorKind::Conflict, "already_subscribed",
                           "You already subscribe to " + product->name + ".");
    }

    const std::string customer = customerFor(buyer);
    const int expiry = provider_.name() == "stripe" ? std::max(settings_.expirySeconds, kStripeMinimumExpirySeconds)
                                                    : settings_.expirySeconds;
    const auto expiresAt = static_cast<std::int64_t>(Poco::Timestamp().epochTime()) + expiry;
    const std::string checkoutId = db::newId();
    const std::string successPath = input.returnPath.value_or("/dashboard");
    const std::string cancelPath = input.returnPath.value_or("/checkout/" + product->slug);
    const std::string sep = successPath.find('?') == std::string::npos ? "?" : "&";
    const std::string cancelSep = cancelPath.find('?') == std::string::npos ? "?" : "&";
    const std::string successUrl = settings_.publicUrl + successPath + sep + "checkout=" + checkoutId;
    const std::string cancelUrl = settings_.publicUrl + cancelPath + cancelSep + "cancelled=" + checkoutId;
    const bool tracked = mode == "payment" && product->trackInventory && product->stockQuantity.has_value();

    // One transaction: stock, the pending order and its item, the checkout row.
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        const std::string at = db::nowTimestamp();
        if (tracked && !catalog::takeStock(db_, s, product->id, quantity)) {
            Poco::Data::Statement left(s);
            std::string pid = product->id;
            Poco::Int64 stock = 0;
            left << db_.sql("SELECT COALESCE(stock_quantity, 0) FROM products WHERE id = ?"), use(pid), into(stock);
            left.execute();
            throw ApiError(ErrorKind::Conflict, "insufficient_stock", stockMessage(stock));
        }
        const Poco::Int64 total = line.unitAmount * quantity;
        std::string orderId = db::newId();
        bool inserted = false;
        for (int attempt = 0; attempt < 5 && !inserted; ++attempt) {
            Poco::Data::Statement order(s);
            std::string number = newOrderNumber(), uid = buyer.userId, cur = line.currency, email = buyer.email;
            Poco::Int64 amount = total;
            order << db_.sql("INSERT INTO orders (id, order_number, user_id, status, total_amount, currency, customer_email, "
                             "created_at, updated_at) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?) "
                             "ON CONFLICT (order_number) DO NOTHING RETURNING id"),
                use(orderId), use(number), use(uid), use(amount), use(cur), use(email), bind(at), bind(at);
            order.execute();
            inserted = Poco::Data::RecordSet(order).rowCount() > 0;
        }
        if (!inserted) throw std::runtime_error("could not allocate an order number");
        std::string itemId = db::newId(), pid = product->id, name = line.name;
        Poco::Nullable<std::string> plan = planId.empty() ? Poco::Nullable<std::string>() : Poco::Nullable<std::string>(planId);
        Poco::Int64 unit = line.unitAmount;
        Poco::Int32 q = quantity;
        s << db_.sql("INSERT INTO order_items (id, order_id, product_id, pricing_plan_id, product_name, quantity, unit_amount) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)"),
            use(itemId), use(orderId), use(pid), use(plan), use(name), use(q), use(unit), now;
        std::string cid = checkoutId, uid = buyer.userId, m = mode, cur = line.currency, prov = provider_.name(),
                    ok = successUrl, no = cancelUrl, until = db::timestampFromEpoch(expiresAt),
                    state = tracked ? "reserved" : "none";
        Poco::Int32 reserved = tracked ? quantity : 0;
        Poco::Int64 amount = total;
        s << db_.sql("INSERT INTO checkout_sessions (id, user_id, order_id, product_id, pricing_plan_id, mode, quantity, "
                     "amount_total, currency, provider, success_url, cancel_url, status, stock_reserved, stock_state, "
                     "expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'creating', ?, ?, ?, ?, ?)"),
            use(cid), use(uid), use(orderId), use(pid), use(plan), use(m), use(q), use(amount), use(cur), use(prov), use(ok),
            use(no), use(reserved), use(state), use(until), bind(at), bind(at), now;
    });

    if (tracked && settings_.stockChanged) settings_.stockChanged();

    CheckoutRequest request;
    request.checkoutId = checkoutId;
    request.mode = mode;
    request.customerId = customer;
    request.line = line;
    request.successUrl = successUrl;
    request.cancelUrl = cancelUrl;
    request.expiresAt = expiresAt;
    request.metadata = {{"checkout_id", checkoutId}, {"user_id", buyer.userId}, {"product_id", product->id}};
    if (!planId.empty()) request.metadata["pricing_plan_id"] = planId;

    CreatedSession session;
    try {
        session = provider_.createCheckoutSession(request);
    } catch (const ProviderError& e) {
        releaseUnopened(checkoutId);
        throw providerFailed(e.what());
    }
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string sid = session.id, url = session.url, cid = checkoutId, at = db::nowTimestamp();
        // An event may already have linked and completed it; only a 'creating' row becomes open.
        s << db_.sql("UPDATE checkout_sessions SET provider_session_id = ?, url = ?, updated_at = ?, "
                     "status = CASE WHEN status = 'creating' THEN 'open' ELSE status END WHERE id = ?"),
            use(sid), use(url), use(at), use(cid), now;
    });
    return {session.id, session.url, checkoutId};
}

void CheckoutService::releaseUnopened(const std::string& checkoutId) {
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        std::string cid = checkoutId, at = db::nowTimestamp();
        Poco::Data::Statement st(s);
        st << db_.sql("UPDATE checkout_sessions SET status = 'expired', stock_state = CASE WHEN stock_state = 'reserved' THEN "
                      "'released' ELSE stock_state END, updated_at = ? WHERE id = ? AND status = 'creating' "
                      "RETURNING CAST(order_id AS TEXT) AS order_id, CAST(product_id AS TEXT) AS product_id, stock_reserved, "
                      "stock_state"),
            use(at), use(cid);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() == 0) return;
        db::Row r(rs, 0);
        std::string orderId = r.text("order_id");
        s << db_.sql("UPDATE orders SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'pending'"), use(at),
            use(orderId), now;
        auto product = r.optText("product_id");
        const std::int64_t reserved = r.int64("stock_reserved");
        if (r.text("stock_state") == "released" && product && reserved > 0) catalog::giveStock(db_, s, *product, reserved);
    });
}

std::string CheckoutService::cancel(const std::string& userId, const std::string& checkoutId) {
    std::string status, orderStatus;
    std::optional<std::string> sessionId;
    {
        auto s = db_.session();
        Poco::Data::Statement st(s);
        std::string u = userId, c = checkoutId;
        st << db_.sql("SELECT c.status, c.provider_session_id, o.status AS order_status FROM checkout_sessions c "
                      "JOIN orders o ON o.id = c.order_id WHERE c.id = ? AND c.user_id = ?"),
            use(c), use(u);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() == 0) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        db::Row r(rs, 0);
        status = r.text("status");
        orderStatus = r.text("order_status");
        sessionId = r.optText("provider_session_id");
    }
    if (orderStatus == "paid" || status == "completed")
        throw ApiError(ErrorKind::Conflict, "checkout_closed", "This checkout was completed and can no longer be cancelled.");
    if (status == "expired") return status;
    if (!sessionId) {
        releaseUnopened(checkoutId);
        return "expired";
    }
    try {
        provider_.expireCheckoutSession(*sessionId);
    } catch (const ProviderError& e) {
        throw providerFailed(e.what());
    }
    auto s = db_.session();
    std::string c = checkoutId, after;
    s << db_.sql("SELECT status FROM checkout_sessions WHERE id = ?"), use(c), into(after), now;
    return after;
}

std::string CheckoutService::portal(const std::string& userId, const std::string& returnPath) {
    std::string customer;
    {
        auto s = db_.session();
        Poco::Data::Statement st(s);
        std::string u = userId, p = provider_.name();
        st << db_.sql("SELECT provider_customer_id FROM payment_customers WHERE user_id = ? AND provider = ?"), use(u), use(p);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() == 0)
            throw ApiError::notFound("no_billing_account", "There is no billing account yet: subscribe or buy something first.");
        customer = db::Row(rs, 0).text("provider_customer_id");
    }
    try {
        return provider_.createPortalSession(customer, settings_.publicUrl + returnPath);
    } catch (const ProviderError& e) {
        throw providerFailed(e.what());
    }
}

int CheckoutService::expireDue() {
    std::vector<std::pair<std::string, std::optional<std::string>>> due; // checkout id, provider session id
    {
        auto s = db_.session();
        Poco::Data::Statement st(s);
        std::string p = provider_.name(), cutoff = db::timestampAfter(-settings_.providerGraceSeconds);
        st << db_.sql("SELECT CAST(id AS TEXT) AS id, provider_session_id FROM checkout_sessions "
                      "WHERE status IN ('creating', 'open') AND provider = ? AND expires_at < ? ORDER BY expires_at LIMIT 100"),
            use(p), use(cutoff);
        st.execute();
        Poco::Data::RecordSet rs(st);
        for (std::size_t i = 0; i < rs.rowCount(); ++i) {
            db::Row r(rs, i);
            due.emplace_back(r.text("id"), r.optText("provider_session_id"));
        }
    }
    int expired = 0;
    for (const auto& [id, sessionId] : due) {
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
