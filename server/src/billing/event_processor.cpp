#include "billing/event_processor.h"

#include "billing/rules.h"
#include "catalog/money.h"
#include "catalog/stock.h"
#include "common/text.h"
#include "db/row.h"
#include "mail/mail_message.h"

#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Statement.h>
#include <Poco/Logger.h>
#include <Poco/Nullable.h>
#include <Poco/String.h>

#include <algorithm>

using namespace Poco::Data::Keywords;

namespace storefront::billing {

namespace {

// ---- reading provider JSON -------------------------------------------------------------------

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

// An expandable Stripe field: "sub_123" or {"id": "sub_123", ...}.
std::optional<std::string> idOf(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end()) return std::nullopt;
    if (it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
    if (it->is_object()) return str(*it, "id");
    return std::nullopt;
}

std::optional<std::string> uuid(const std::optional<std::string>& value) {
    if (value && common::isUuid(*value)) return value;
    return std::nullopt;
}

// The period end of a subscription: on its items in the current API, on the object before it.
std::optional<std::int64_t> periodEnd(const nlohmann::json& subscription) {
    std::optional<std::int64_t> end;
    auto items = member(subscription, "items").find("data");
    if (items != member(subscription, "items").end() && items->is_array())
        for (const auto& item : *items)
            if (auto e = integer(item, "current_period_end")) end = std::max(end.value_or(*e), *e);
    if (!end) end = integer(subscription, "current_period_end");
    return end;
}

// The subscription an invoice belongs to: `parent.subscription_details.subscription` in the
// current API, `subscription` before it.
std::optional<std::string> invoiceSubscription(const nlohmann::json& invoice) {
    if (auto id = idOf(member(member(invoice, "parent"), "subscription_details"), "subscription")) return id;
    return idOf(invoice, "subscription");
}

std::optional<std::int64_t> invoicePeriodEnd(const nlohmann::json& invoice) {
    std::optional<std::int64_t> end;
    auto lines = member(invoice, "lines").find("data");
    if (lines != member(invoice, "lines").end() && lines->is_array())
        for (const auto& line : *lines)
            if (auto e = integer(member(line, "period"), "end")) end = std::max(end.value_or(*e), *e);
    return end;
}

std::optional<std::string> optTimestamp(const std::optional<std::int64_t>& epoch) {
    if (!epoch) return std::nullopt;
    return db::timestampFromEpoch(*epoch);
}

Poco::Nullable<std::string> nullable(const std::optional<std::string>& v) {
    return v ? Poco::Nullable<std::string>(*v) : Poco::Nullable<std::string>();
}

// ---- checkouts and orders --------------------------------------------------------------------

struct Checkout {
    std::string id;
    std::optional<std::string> userId;
    std::string orderId;
    std::optional<std::string> productId;
    std::optional<std::string> planId;
    std::string mode;
    std::string status;
    std::string stockState;
    std::int64_t quantity = 0;
    std::int64_t stockReserved = 0;
    std::optional<std::string> providerSessionId;
};

constexpr const char* kCheckoutColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, CAST(order_id AS TEXT) AS order_id, "
    "CAST(product_id AS TEXT) AS product_id, CAST(pricing_plan_id AS TEXT) AS pricing_plan_id, mode, status, "
    "stock_state, quantity, stock_reserved, provider_session_id FROM checkout_sessions ";

class Tx {
public:
    Tx(db::Database& db, Poco::Data::Session& s) : db_(db), s_(s) {}

    std::optional<Checkout> checkout(const std::string& where, const std::string& a, const std::string& b) {
        Poco::Data::Statement st(s_);
        std::string x = a, y = b;
        st << db_.sql(std::string(kCheckoutColumns) + where), use(x), use(y);
        st.execute();
        Poco::Data::RecordSet rs(st);
        if (rs.rowCount() == 0) return std::nullopt;
        db::Row r(rs, 0);
        Checkout c;
        c.id = r.text("id");
        c.userId = r.optText("user_id");
        c.orderId = r.text("order_id");
        c.productId = r.optText("product_id");
        c.planId = r.optText("pricing_plan_id");
        c.mode = r.text("mode");
        c.status = r.text("status");
        c.stockState = r.text("stock_state");
        c.quantity = r.int64("quantity");
        c.stockReserved = r.int64("stock_reserved");
        c.providerSessionId = r.optText("provider_session_id");
        return c;
    }

    // The checkout a checkout.session event is about: our id from metadata or
    // client_reference_id, else the provider's session id.
    std::optional<Checkout> findCheckout(const std::string& provider, const nlohmann::json& session) {
        for (const auto& candidate : {str(member(session, "metadata"), "checkout_id"), str(session, "client_reference_id")})
            if (auto id = uuid(candidate))
                if (auto c = checkout("WHERE id = ? AND provider = ?", *id, provider)) return c;
        if (auto sid = str(session, "id")) return checkout("WHERE provider = ? AND provider_session_id = ?", provider, *sid);
        return std::nullopt;
    }

    void exec(const std::string& sql, std::vector<std::string> values) {
        Poco::Data::Statement st(s_);
        st << db_.sql(sql);
        for (auto& v : values) st, use(v);
        st.execute();
    }

    // Runs a statement with RETURNING and says whether it touched a row.
    bool changed(const std::string& sql, std::vector<std::string> values) {
        Poco::Data::Statement st(s_);
        st << db_.sql(sql);
        for (auto& v : values) st, use(v);
        st.execute();
        Poco::Data::RecordSet rs(st);
        return rs.rowCount() > 0;
    }

    db::Database& db() { return db_; }
    Poco::Data::Session& session() { return s_; }

private:
    db::Database& db_;
    Poco::Data::Session& s_;
};

mail::MailMessage orderConfirmation(Tx& tx, const std::string& orderId, const std::string& publicUrl) {
    mail::MailMessage m;
    Poco::Data::Statement st(tx.session());
    std::string id = orderId;
    st << tx.db().sql("SELECT o.order_number, o.total_amount, o.currency, o.customer_email, i.product_name, i.quantity, "
                      "i.unit_amount FROM orders o LEFT JOIN order_items i ON i.order_id = o.id WHERE o.id = ? "
                      "ORDER BY i.product_name"),
        use(id);
    st.execute();
    Poco::Data::RecordSet rs(st);
    if (rs.rowCount() == 0) return m;
    db::Row first(rs, 0);
    auto email = first.optText("customer_email");
    if (!email || !mail::isValidEmailAddress(*email)) return m;
    const std::string number = first.text("order_number");
    const std::string currency = first.text("currency");
    m.kind = "order_confirmation";
    m.to = *email;
    m.subject = "Order " + number + " confirmed";
    std::string text = "Thank you for your order.\n\nOrder number: " + number + "\n\n";
    for (std::size_t i = 0; i < rs.rowCount(); ++i) {
        db::Row r(rs, i);
        auto name = r.optText("product_name");
        if (!name) continue;
        text += "  " + std::to_string(r.int64("quantity")) + " x " + *name + "  " +
                catalog::formatMoney(r.int64("unit_amount"), currency) + "\n";
    }
    text += "\nTotal paid: " + catalog::formatMoney(first.int64("total_amount"), currency) + " " + currency +
            " (GST included)\n\nYour orders: " + publicUrl + "/dashboard\n";
    m.text = std::move(text);
    return m;
}


// ---- subscriptions -----------------------------------------------------------------------------

struct SubscriptionRow {
    std::string id;
    std::string userId;
    std::string productId;
    std::string status;
    std::optional<std::string> eventAt;
    std::optional<std::string> periodEnd;
};

bool live(const std::string& status) { return status == "active" || status == "trialing"; }

std::optional<SubscriptionRow> findSubscription(Tx& tx, const std::string& provider, const std::string& providerId) {
    Poco::Data::Statement st(tx.session());
    std::string p = provider, id = providerId;
    st << tx.db().sql("SELECT CAST(id AS TEXT) AS id, CAST(user_id AS TEXT) AS user_id, CAST(product_id AS TEXT) AS product_id, "
                      "status, CAST(provider_event_at AS TEXT) AS provider_event_at, "
                      "CAST(current_period_end AS TEXT) AS current_period_end FROM subscriptions "
                      "WHERE payment_provider = ? AND provider_subscription_id = ?"),
        use(p), use(id);
    st.execute();
    Poco::Data::RecordSet rs(st);
    if (rs.rowCount() == 0) return std::nullopt;
    db::Row r(rs, 0);
    return SubscriptionRow{r.text("id"), r.text("user_id"), r.text("product_id"), r.text("status"),
                           r.optTimestamp("provider_event_at"), r.optTimestamp("current_period_end")};
}

// Another live subscription of the same user and product (the partial unique index forbids two).
bool otherLive(Tx& tx, const std::string& userId, const std::string& productId, const std::string& exceptId) {
    return tx.changed("SELECT id FROM subscriptions WHERE user_id = ? AND product_id = ? AND status IN ('active', 'trialing') "
                      "AND id <> ?",
                      {userId, productId, exceptId});
}

bool exists(Tx& tx, const char* table, const std::string& id) {
    return tx.changed(std::string("SELECT id FROM ") + table + " WHERE id = ?", {id});
}

std::optional<std::string> laterOf(const std::optional<std::string>& a, const std::optional<std::string>& b) {
    if (!a) return b;
    if (!b) return a;
    return std::max(*a, *b); // same ISO-8601 UTC form: text order is time order
}

struct NewSubscription {
    std::string userId, productId, status, provider, providerId;
    std::optional<std::string> planId, customerId, periodEnd, eventAt;
    bool cancelAtPeriodEnd = false;
};

void insertSubscription(Tx& tx, NewSubscription n) {
    if (live(n.status) && otherLive(tx, n.userId, n.productId, "00000000-0000-0000-0000-000000000000")) {
        Poco::Logger::get("billing").warning("user %s already has a live subscription to product %s; %s %s is kept as pending",
                                             n.userId, n.productId, n.provider, n.providerId);
        n.status = "pending";
    }
    Poco::Data::Statement st(tx.session());
    std::string id = db::newId(), at = db::nowTimestamp();
    auto plan = nullable(n.planId), customer = nullable(n.customerId), end = nullable(n.periodEnd), eventAt = nullable(n.eventAt);
    bool cancelAtEnd = n.cancelAtPeriodEnd;
    st << tx.db().sql("INSERT INTO subscriptions (id, user_id, product_id, pricing_plan_id, status, payment_provider, "
                      "provider_subscription_id, provider_customer_id, current_period_end, cancel_at_period_end, "
                      "provider_event_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                      "ON CONFLICT (payment_provider, provider_subscription_id) DO NOTHING"),
        use(id), use(n.userId), use(n.productId), use(plan), use(n.status), use(n.provider), use(n.providerId), use(customer),
        use(end), use(cancelAtEnd), use(eventAt), use(at), bind(at);
    st.execute();
}

// checkout.session.completed in subscription mode: makes sure the subscription exists even before
// its own events arrive. It claims no event time, so those events still apply in full.
void linkSubscription(Tx& tx, const std::string& provider, const std::string& providerId,
                      const std::optional<std::string>& customerId, const Checkout& c, bool paid) {
    if (findSubscription(tx, provider, providerId)) return;
    insertSubscription(tx, {*c.userId, *c.productId, paid ? "active" : "pending", provider, providerId, c.planId, customerId,
                            std::nullopt, std::nullopt, false});
}

void updateSubscription(Tx& tx, const SubscriptionRow& row, std::string status, const std::optional<std::string>& periodEnd,
                        std::optional<bool> cancelAtPeriodEnd, const std::optional<std::string>& eventAt) {
    if (live(status) && !live(row.status) && otherLive(tx, row.userId, row.productId, row.id)) {
        Poco::Logger::get("billing").warning("subscription %s cannot become %s: the user has another live one", row.id, status);
        status = row.status;
    }
    Poco::Data::Statement st(tx.session());
    std::string id = row.id, at = db::nowTimestamp();
    auto end = nullable(laterOf(row.periodEnd, periodEnd)), when = nullable(laterOf(row.eventAt, eventAt));
    bool cancelAtEnd = cancelAtPeriodEnd.value_or(false); // bound by reference: lives until execute()
    if (cancelAtPeriodEnd) {
        st << tx.db().sql("UPDATE subscriptions SET status = ?, current_period_end = ?, cancel_at_period_end = ?, "
                          "provider_event_at = ?, updated_at = ? WHERE id = ?"),
            use(status), use(end), use(cancelAtEnd), use(when), use(at), use(id);
    } else {
        st << tx.db().sql("UPDATE subscriptions SET status = ?, current_period_end = ?, provider_event_at = ?, updated_at = ? "
                          "WHERE id = ?"),
            use(status), use(end), use(when), use(at), use(id);
    }
    st.execute();
}

// customer.subscription.created / updated / deleted.
bool applySubscription(Tx& tx, const std::string& provider, const nlohmann::json& object, const std::string& eventAt,
                       bool deleted) {
    auto providerId = str(object, "id");
    if (!providerId) return false;
    const std::string status = deleted ? "cancelled" : statusFromStripe(str(object, "status").value_or(""));
    const auto end = optTimestamp(periodEnd(object));
    auto capeIt = object.find("cancel_at_period_end");
    const bool cape = capeIt != object.end() && capeIt->is_boolean() && capeIt->get<bool>();

    auto row = findSubscription(tx, provider, *providerId);
    if (!row) {
        const auto& metadata = member(object, "metadata");
        auto customer = idOf(object, "customer");
        std::optional<std::string> userId = uuid(str(metadata, "user_id"));
        if (userId && !exists(tx, "users", *userId)) userId.reset();
        if (!userId && customer) {
            Poco::Data::Statement st(tx.session());
            std::string p = provider, c = *customer;
            st << tx.db().sql("SELECT CAST(user_id AS TEXT) AS user_id FROM payment_customers WHERE provider = ? AND "
                              "provider_customer_id = ?"),
                use(p), use(c);
            st.execute();
            Poco::Data::RecordSet rs(st);
            if (rs.rowCount() > 0) userId = db::Row(rs, 0).text("user_id");
        }
        std::optional<std::string> productId = uuid(str(metadata, "product_id"));
        if (productId && !exists(tx, "products", *productId)) productId.reset();
        std::optional<std::string> planId = uuid(str(metadata, "pricing_plan_id"));
        if (planId && !exists(tx, "pricing_plans", *planId)) planId.reset();
        if (!userId || !productId) {
            Poco::Logger::get("billing").warning("%s subscription %s names no user or product of ours; ignored", provider,
                                                 *providerId);
            return false;
        }
        insertSubscription(tx, {*userId, *productId, status, provider, *providerId, planId, customer, end, eventAt, cape});
        return true;
    }
    if (row->status == "cancelled" || row->status == "expired") return false; // ended subscriptions stay ended
    if (!deleted && row->eventAt && eventAt < *row->eventAt) {
        // Older than what we have: only a later period end is news.
        updateSubscription(tx, *row, row->status, end, std::nullopt, std::nullopt);
        return true;
    }
    updateSubscription(tx, *row, status, end, cape, eventAt);
    return true;
}

// invoice.paid extends the period and makes the subscription active; invoice.payment_failed makes
// it pending. Either only when no newer event has spoken.
bool applyInvoice(Tx& tx, const std::string& provider, const std::string& providerId,
                  const std::optional<std::int64_t>& invoiceEnd, const std::string& eventAt, bool paid) {
    auto row = findSubscription(tx, provider, providerId);
    if (!row || row->status == "cancelled" || row->status == "expired") return false;
    const auto end = paid ? optTimestamp(invoiceEnd) : std::nullopt;
    if (row->eventAt && eventAt < *row->eventAt) {
        updateSubscription(tx, *row, row->status, end, std::nullopt, std::nullopt);
        return true;
    }
    std::string status = paid ? (row->status == "trialing" ? "trialing" : "active") : "pending";
    updateSubscription(tx, *row, status, end, std::nullopt, eventAt);
    return true;
}

// A paid checkout we did not start (a payment link): a guest order, once per provider session.
std::optional<std::string> guestOrder(Tx& tx, const std::string& provider, const nlohmann::json& session) {
    auto sessionId = str(session, "id");
    auto amount = integer(session, "amount_total");
    const std::string currency = Poco::toUpper(str(session, "currency").value_or("nzd"));
    if (!sessionId || !amount || *amount < 0 || (currency != "NZD" && currency != "AUD" && currency != "USD")) {
        Poco::Logger::get("billing").warning("%s checkout %s has no usable amount or currency; no order made", provider,
                                             sessionId.value_or("?"));
        return std::nullopt;
    }
    auto email = str(member(session, "customer_details"), "email");
    if (!email) email = str(session, "customer_email");
    const std::string reference = provider + ":" + *sessionId;
    for (int attempt = 0; attempt < 5; ++attempt) {
        Poco::Data::Statement st(tx.session());
        std::string id = db::newId(), number = newOrderNumber(), at = db::nowTimestamp(), ref = reference, cur = currency;
        Poco::Int64 total = *amount;
        auto mailTo = nullable(email);
        st << tx.db().sql("INSERT INTO orders (id, order_number, user_id, status, total_amount, currency, customer_email, "
                          "provider_checkout_id, created_at, updated_at) VALUES (?, ?, NULL, 'paid', ?, ?, ?, ?, ?, ?) "
                          "ON CONFLICT DO NOTHING RETURNING id"),
            use(id), use(number), use(total), use(cur), use(mailTo), use(ref), use(at), bind(at);
        st.execute();
        if (Poco::Data::RecordSet(st).rowCount() > 0) {
            Poco::Data::Statement item(tx.session());
            std::string itemId = db::newId(), orderId = id;
            Poco::Int64 unit = *amount;
            item << tx.db().sql("INSERT INTO order_items (id, order_id, product_id, pricing_plan_id, product_name, quantity, "
                                "unit_amount) VALUES (?, ?, NULL, NULL, 'Payment link purchase', 1, ?)"),
                use(itemId), use(orderId), use(unit);
            item.execute();
            return id;
        }
        if (tx.changed("SELECT id FROM orders WHERE provider_checkout_id = ?", {reference})) return std::nullopt; // seen
    }
    throw std::runtime_error("could not allocate an order number");
}

} // namespace

const char* outcomeName(EventProcessor::Outcome outcome) {
    switch (outcome) {
    case EventProcessor::Outcome::Applied: return "applied";
    case EventProcessor::Outcome::Ignored: return "ignored";
    case EventProcessor::Outcome::Duplicate: return "duplicate";
    }
    return "unknown";
}

EventProcessor::Outcome EventProcessor::ingest(const std::string& provider, const std::string& payload) {
    auto event = nlohmann::json::parse(payload, nullptr, false);
    if (!event.is_object()) throw MalformedEvent("The event is not a JSON object.");
    auto id = str(event, "id");
    auto type = str(event, "type");
    auto created = integer(event, "created");
    const auto& data = member(event, "data");
    auto object = data.find("object");
    if (!id || !type || !created || object == data.end() || !object->is_object())
        throw MalformedEvent("The event needs id, type, created and data.object.");
    if (id->size() > 255 || type->size() > 255) throw MalformedEvent("The event id or type is too long.");

    Outcome outcome = Outcome::Duplicate;
    bool mailQueued = false, stockChanged = false;
    db_.write([&](db::Tx& tx) {
        auto& s = tx.session();
        mailQueued = stockChanged = false;
        // The inbox row first: a concurrent delivery of the same event waits on it and then finds it.
        Poco::Data::Statement insert(s);
        std::string p = provider, e = *id, t = *type, at = db::timestampFromEpoch(*created), received = db::nowTimestamp(),
                    body = payload;
        insert << db_.sql("INSERT INTO payment_events (provider, event_id, type, event_created_at, received_at, outcome, payload) "
                          "VALUES (?, ?, ?, ?, ?, 'ignored', ?) ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id"),
            use(p), use(e), use(t), use(at), use(received), use(body);
        insert.execute();
        if (Poco::Data::RecordSet(insert).rowCount() == 0) {
            outcome = Outcome::Duplicate;
            return;
        }
        const bool applied = apply(s, provider, *type, *object, at, mailQueued, stockChanged);
        outcome = applied ? Outcome::Applied : Outcome::Ignored;
        if (applied)
            s << db_.sql("UPDATE payment_events SET outcome = 'applied' WHERE provider = ? AND event_id = ?"), use(p), use(e), now;
    });
    if (mailQueued && mailQueued_) mailQueued_();
    if (stockChanged && stockChanged_) stockChanged_();
    return outcome;
}

bool EventProcessor::apply(Poco::Data::Session& s, const std::string& provider, const std::string& type,
                           const nlohmann::json& object, const std::string& eventAt, bool& mailQueued,
                           bool& stockChanged) {
    Tx tx(db_, s);
    auto& log = Poco::Logger::get("billing");
    const std::string at = db::nowTimestamp();

    // Paid: the order moves to paid (also from cancelled: money was taken), its stock is settled.
    auto markPaid = [&](Checkout& c) {
        if (c.stockState == "released" && c.productId) {
            // Paid after the reservation was given back (a late event): take the stock again if any is left.
            stockChanged = true;
            if (!catalog::takeStock(tx.db(), tx.session(), *c.productId, c.quantity))
                log.warning("checkout %s was paid after its stock was released and none is left: order %s needs attention",
                            c.id, c.orderId);
        }
        tx.exec("UPDATE checkout_sessions SET status = 'completed', stock_state = CASE WHEN stock_state = 'none' "
                "THEN 'none' ELSE 'settled' END, updated_at = ? WHERE id = ?",
                {at, c.id});
        if (tx.changed("UPDATE orders SET status = 'paid', updated_at = ? WHERE id = ? AND status IN ('pending', 'cancelled') "
                       "RETURNING id",
                       {at, c.orderId})) {
            auto message = orderConfirmation(tx, c.orderId, publicUrl_);
            if (!message.to.empty()) {
                outbox_.enqueue(s, message);
                mailQueued = true;
            }
        }
    };
    // Not paid (expired, abandoned, async payment failed): a pending order is cancelled and its stock
    // given back. A paid order is left alone.
    auto markUnpaid = [&](Checkout& c) {
        if (!tx.changed("UPDATE orders SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'pending' RETURNING id",
                        {at, c.orderId}))
            return false;
        if (c.stockState == "reserved" && c.productId && c.stockReserved > 0) {
            catalog::giveStock(tx.db(), tx.session(), *c.productId, c.stockReserved);
            stockChanged = true;
        }
        tx.exec("UPDATE checkout_sessions SET status = 'expired', stock_state = CASE WHEN stock_state = 'reserved' "
                "THEN 'released' ELSE stock_state END, updated_at = ? WHERE id = ?",
                {at, c.id});
        return true;
    };

    if (type == "checkout.session.completed" || type == "checkout.session.async_payment_succeeded") {
        const auto paymentStatus = str(object, "payment_status").value_or("paid");
        const bool paid = paymentStatus == "paid" || paymentStatus == "no_payment_required" ||
                          type == "checkout.session.async_payment_succeeded";
        auto c = tx.findCheckout(provider, object);
        if (!c) {
            if (!paid) return false;
            auto orderId = guestOrder(tx, provider, object);
            if (!orderId) return false;
            auto message = orderConfirmation(tx, *orderId, publicUrl_);
            if (!message.to.empty()) {
                outbox_.enqueue(s, message);
                mailQueued = true;
            }
            return true;
        }
        if (!c->providerSessionId)
            if (auto sid = str(object, "id"))
                tx.exec("UPDATE checkout_sessions SET provider_session_id = ? WHERE id = ?", {*sid, c->id});
        if (c->mode == "subscription" && c->userId && c->productId)
            if (auto sub = idOf(object, "subscription"))
                linkSubscription(tx, provider, *sub, idOf(object, "customer"), *c, paid);
        if (paid) markPaid(*c);
        else tx.exec("UPDATE checkout_sessions SET status = 'completed', updated_at = ? WHERE id = ? AND status = 'open'",
                     {at, c->id}); // an async payment method: the money follows (or not) in a later event
        return true;
    }
    if (type == "checkout.session.expired" || type == "checkout.session.async_payment_failed") {
        auto c = tx.findCheckout(provider, object);
        return c && markUnpaid(*c);
    }
    if (type == "customer.subscription.created" || type == "customer.subscription.updated" ||
        type == "customer.subscription.deleted")
        return applySubscription(tx, provider, object, eventAt, type == "customer.subscription.deleted");
    if (type == "invoice.paid" || type == "invoice.payment_failed") {
        auto sub = invoiceSubscription(object);
        if (!sub) return false;
        return applyInvoice(tx, provider, *sub, invoicePeriodEnd(object), eventAt, type == "invoice.paid");
    }
    return false;
}

} // namespace storefront::billing
