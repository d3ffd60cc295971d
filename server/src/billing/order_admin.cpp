#include "billing/order_admin.h"

#include "billing/orders/lifecycle.h"
#include "catalog/money.h"
#include "catalog/stock_repository.h"
#include "http/api_error.h"

#include <Poco/Logger.h>

#include <nlohmann/json.hpp>

using storefront::http::ApiError;
using storefront::http::ErrorKind;

namespace storefront::billing {

mail::MailMessage shippedMail(const AdminOrderDetail& d, const std::string& publicUrl) {
    mail::MailMessage m;
    const auto& o = d.order;
    if (!o.customerEmail || !mail::isValidEmailAddress(*o.customerEmail)) return m;
    m.kind = "order_shipped";
    m.to = *o.customerEmail;
    m.subject = "Your order " + o.orderNumber + " has shipped";
    std::string text = "Good news: your order " + o.orderNumber + " is on its way.\n\n";
    const auto& f = o.fulfilment;
    if (f.carrier) text += "Carrier: " + *f.carrier + "\n";
    if (f.trackingNumber) text += "Tracking number: " + *f.trackingNumber + "\n";
    if (!f.carrier && !f.trackingNumber) text += "There is no tracking number for this delivery.\n";
    text += "\nItems:\n";
    // What is on its way: a refunded unit is not sent (docs/billing.md, "Shipping and fulfilment").
    for (const auto& i : d.items)
        if (const auto toSend = i.quantity - i.refundedQuantity; toSend > 0)
            text += "  " + std::to_string(toSend) + " x " + i.productName + "\n";
    if (f.address) {
        text += "\nShipping to:\n";
        for (const auto& line : addressLines(*f.address)) text += "  " + line + "\n";
    }
    text += "\nYour orders: " + publicUrl + "/dashboard\n";
    m.text = std::move(text);
    return m;
}

bool isOrderStatus(const std::string& s) {
    return s == "pending" || s == "paid" || s == "shipped" || s == "completed" || s == "cancelled";
}

db::Page<AdminOrder> OrderAdmin::orders(const AdminOrderFilter& filter, const db::PageQuery& page) {
    auto s = db_.session();
    auto list = orders_.adminList(s, filter, page);
    for (auto& o : list.items) o.cancellable = o.status == "paid" && paidHere(o);
    return list;
}

bool OrderAdmin::paidHere(const AdminOrder& o) const { return o.providerPaid && o.paymentProvider == provider_.name(); }

std::optional<AdminOrderDetail> OrderAdmin::order(const std::string& id) {
    auto s = db_.session();
    return detail(s, id);
}

void OrderAdmin::describeActions(AdminOrderDetail& d) const {
    const auto& o = d.order;
    const bool paidStatus = o.status == "paid" || o.status == "shipped" || o.status == "completed" || o.status == "refunded" ||
                            (o.status == "cancelled" && o.paidAfterCancellation);
    d.order.cancellable = o.status == "paid" && paidHere(o);
    if (!paidStatus || !paidHere(o)) {
        d.refundableAmount = 0;
        return;
    }
    std::int64_t waiting = 0;
    for (const auto& r : d.refunds)
        if (r.status == "requested") waiting += r.amount;
    d.refundableAmount = std::max<std::int64_t>(0, d.order.totalAmount - d.order.refundedAmount - waiting);
}

mail::MailMessage cancelledMail(const AdminOrderDetail& d, const std::string& reason, std::int64_t refunded,
                                const std::string& publicUrl) {
    mail::MailMessage m;
    const auto& o = d.order;
    if (!o.customerEmail || !mail::isValidEmailAddress(*o.customerEmail)) return m;
    m.kind = "order_cancelled";
    m.to = *o.customerEmail;
    m.subject = "Your order " + o.orderNumber + " has been cancelled";
    std::string text = "We have cancelled your order " + o.orderNumber + ".\n\nReason: " + reason + "\n\n";
    if (refunded > 0) {
        text += "We have refunded " + catalog::formatMoney(refunded, o.currency) + " " + o.currency +
                " to the card or account you paid with; your bank may take 5 to 10 working days to show it.\n";
        for (auto it = d.invoices.rbegin(); it != d.invoices.rend(); ++it)
            if (it->kind == "credit_note") {
                text += "\nCredit note " + it->number + " (it adjusts the order's tax invoice): " + publicUrl +
                        "/account/invoices/" + it->number + "\n";
                break;
            }
    }
    text += "\nYour orders: " + publicUrl + "/dashboard\n";
    m.text = std::move(text);
    return m;
}

void OrderAdmin::releaseStock(db::Tx& tx, const std::string& id) {
    // Exactly once, whoever gets there first: the reservation's own guarded stock_state.
    for (const auto& r : checkouts_.releaseReservation(tx, id)) catalog::giveStock(tx, r.productId, r.quantity);
}

void OrderAdmin::expireAtProvider(const std::vector<std::pair<std::string, std::optional<std::string>>>& toExpire,
                                  const std::string& id) {
    for (const auto& [provider, sessionId] : toExpire) {
        if (!sessionId || provider != provider_.name()) continue;
        try {
            provider_.expireCheckoutSession(*sessionId);
        } catch (const std::exception& e) {
            // The order stays cancelled; a payment that still arrives is recorded as a late payment.
            Poco::Logger::get("billing").warning("could not expire %s checkout %s of order %s: %s", provider, *sessionId, id,
                                                 std::string(e.what()));
        }
    }
}

} // namespace storefront::billing
