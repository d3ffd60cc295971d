#include "billing/subscriptions/payment_repository.h"

namespace storefront::billing {

namespace {

constexpr const char* kPaymentColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(subscription_id AS TEXT) AS subscription_id, provider, provider_invoice_id, "
    "provider_payment_id, amount, currency, refunded_amount, CAST(paid_at AS TEXT) AS paid_at FROM subscription_payments ";
constexpr const char* kRecordPaid =
    "INSERT INTO subscription_payments (id, subscription_id, provider, provider_invoice_id, provider_payment_id, amount, currency, "
    "paid_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (provider, provider_invoice_id) DO UPDATE SET "
    "provider_payment_id = COALESCE(subscription_payments.provider_payment_id, excluded.provider_payment_id)";
constexpr const char* kSetPaymentId =
    "UPDATE subscription_payments SET provider_payment_id = ? WHERE provider = ? AND provider_invoice_id = ? "
    "AND provider_payment_id IS NULL";
// Holding the row: the refund's checks and its insert see no concurrent refund of the same payment.
constexpr const char* kHold = "UPDATE subscription_payments SET refunded_amount = refunded_amount WHERE id = ?";
constexpr const char* kCounted =
    "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM subscription_refunds WHERE payment_id = ? "
    "AND status IN ('requested', 'pending', 'succeeded')";
constexpr const char* kAddRefunded = "UPDATE subscription_payments SET refunded_amount = refunded_amount + ? WHERE id = ?";
constexpr const char* kRefundColumns =
    "SELECT CAST(id AS TEXT) AS id, CAST(payment_id AS TEXT) AS payment_id, amount, currency, reason, status, source, "
    "provider_refund_id, client_key, CAST(created_at AS TEXT) AS created_at FROM subscription_refunds ";
constexpr const char* kInsertRefund =
    "INSERT INTO subscription_refunds (id, payment_id, amount, currency, reason, status, source, provider_refund_id, client_key, "
    "actor_id, actor_email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kSetRefundStatus =
    "UPDATE subscription_refunds SET status = ?, provider_refund_id = COALESCE(?, provider_refund_id), updated_at = ? WHERE id = ?";

SubscriptionPayment readPayment(const db::Row& r) {
    SubscriptionPayment p;
    p.id = r.text("id");
    p.subscriptionId = r.text("subscription_id");
    p.provider = r.text("provider");
    p.providerInvoiceId = r.text("provider_invoice_id");
    p.providerPaymentId = r.optText("provider_payment_id");
    p.amount = r.int64("amount");
    p.currency = r.text("currency");
    p.refundedAmount = r.int64("refunded_amount");
    p.paidAt = r.timestamp("paid_at");
    return p;
}

SubscriptionRefund readSubscriptionRefund(const db::Row& r) {
    SubscriptionRefund f;
    f.id = r.text("id");
    f.paymentId = r.text("payment_id");
    f.amount = r.int64("amount");
    f.currency = r.text("currency");
    f.reason = r.optText("reason");
    f.status = r.text("status");
    f.source = r.text("source");
    f.providerRefundId = r.optText("provider_refund_id");
    f.clientKey = r.optText("client_key");
    f.createdAt = r.timestamp("created_at");
    return f;
}

} // namespace

void SubscriptionPaymentRepository::recordPaid(db::Tx& tx, const SubscriptionPayment& p) {
    tx.query(kRecordPaid)
        .bind(db::newId(), p.subscriptionId, p.provider, p.providerInvoiceId, p.providerPaymentId, p.amount, p.currency, p.paidAt)
        .run();
}

void SubscriptionPaymentRepository::setPaymentId(db::Tx& tx, const std::string& provider, const std::string& invoiceId,
                                                 const std::string& paymentId) {
    tx.query(kSetPaymentId).bind(paymentId, provider, invoiceId).run();
}

std::optional<SubscriptionPayment> SubscriptionPaymentRepository::latest(db::Tx& tx, const std::string& subscriptionId) {
    auto p = tx.query(std::string(kPaymentColumns) + "WHERE subscription_id = ? ORDER BY paid_at DESC, id DESC LIMIT 1")
                 .bind(subscriptionId)
                 .one(readPayment);
    if (p) {
        tx.query(kHold).bind(p->id).run();
        p = find(tx, p->id);
    }
    return p;
}

std::optional<SubscriptionPayment> SubscriptionPaymentRepository::byProviderPayment(db::Tx& tx, const std::string& provider,
                                                                                  const std::string& paymentId) {
    return tx.query(std::string(kPaymentColumns) + "WHERE provider = ? AND provider_payment_id = ?").bind(provider, paymentId).one(readPayment);
}

std::optional<SubscriptionPayment> SubscriptionPaymentRepository::find(db::Tx& tx, const std::string& id) {
    return tx.query(std::string(kPaymentColumns) + "WHERE id = ?").bind(id).one(readPayment);
}

std::int64_t SubscriptionPaymentRepository::counted(db::Tx& tx, const std::string& paymentId) {
    return tx.query(kCounted).bind(paymentId).count();
}

void SubscriptionPaymentRepository::addRefunded(db::Tx& tx, const std::string& paymentId, std::int64_t delta) {
    tx.query(kAddRefunded).bind(delta, paymentId).run();
}

std::string SubscriptionPaymentRepository::insertRefund(db::Tx& tx, const NewSubscriptionRefund& n) {
    const auto id = db::newId();
    const auto at = tx.clock().nowTimestamp();
    tx.query(kInsertRefund)
        .bind(id, n.paymentId, n.amount, n.currency, n.reason, n.status, n.source, n.providerRefundId, n.clientKey)
        .bind(n.actorId, n.actorEmail, at, at)
        .run();
    return id;
}

std::optional<SubscriptionRefund> SubscriptionPaymentRepository::refund(db::Tx& tx, const std::string& id) {
    return tx.query(std::string(kRefundColumns) + "WHERE id = ?").bind(id).one(readSubscriptionRefund);
}

std::optional<SubscriptionRefund> SubscriptionPaymentRepository::refundByClientKey(db::Tx& tx, const std::string& paymentId,
                                                                                  const std::string& key) {
    return tx.query(std::string(kRefundColumns) + "WHERE payment_id = ? AND client_key = ?").bind(paymentId, key).one(readSubscriptionRefund);
}

std::optional<SubscriptionRefund> SubscriptionPaymentRepository::refundByProviderId(db::Tx& tx, const std::string& providerRefundId) {
    return tx.query(std::string(kRefundColumns) + "WHERE provider_refund_id = ?").bind(providerRefundId).one(readSubscriptionRefund);
}

void SubscriptionPaymentRepository::setRefundStatus(db::Tx& tx, const std::string& id, const std::string& status,
                                                    const std::optional<std::string>& providerRefundId) {
    tx.query(kSetRefundStatus).bind(status, providerRefundId, tx.clock().nowTimestamp(), id).run();
}

} // namespace storefront::billing
