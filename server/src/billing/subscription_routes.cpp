#include "billing/subscription_routes.h"

#include "audit/audit.h"
#include "audit/csv_export.h"
#include "http/paging.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/params.h"

namespace storefront::billing {

namespace {

using http::Access;
using http::ApiError;

constexpr std::size_t kMaxReasonChars = 500;

const std::vector<std::string> kSubscriptionColumns = {
    "created_at", "status", "customer_email", "product", "plan", "payment_provider", "current_period_end",
    "cancel_at_period_end", "subscription_id", "user_id"};

void writeSubscription(csv::Writer& out, const AdminSubscription& s) {
    out.time(audit::instantOf(s.createdAt)).text(s.status).text(s.userEmail).text(s.productName).text(s.planName);
    out.text(s.paymentProvider).time(audit::instantOf(s.periodEnd)).boolean(s.cancelAtPeriodEnd).text(s.id).text(s.userId);
    out.endRow();
}

nlohmann::json ownSubscription(AccountQueries& account, const std::string& userId, const std::string& id) {
    auto json = account.subscription(userId, id);
    if (!json) throw ApiError::notFound("subscription_not_found", "No such subscription.");
    return *json;
}

// {"at_period_end": true|false}: required, so a missing choice never cancels at once by default.
bool atPeriodEndOf(http::Body& body) {
    auto at = body.optBoolean("at_period_end");
    if (!at && !body.failed("at_period_end")) body.fail("at_period_end", "Choose true (at the period end) or false (now).");
    return at.value_or(true);
}

std::string planIdOf(const std::optional<std::string>& value) {
    if (!value || value->empty()) throw ApiError::validation({{"priceId", "Choose a plan."}}, "Choose a plan.");
    return *value;
}

} // namespace

void registerSubscriptionRoutes(http::Router& router, SubscriptionService& subscriptions, AccountQueries& account) {
    router.get("/api/v1/admin/subscriptions", Access::StaffAdmin, [&subscriptions](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        auto status = http::readChoice(req, "status", {"active", "past_due", "pending", "cancelled", "expired", "trialing"});
        const auto search = http::readSearch(req);
        res.json(200, http::pageJson(subscriptions.staffList(status, search, http::pageQuery(page)), page));
    });

    // The same lists as CSV, with the list's filters and search (docs/backoffice.md, "Exports").
    router.get("/api/v1/admin/subscriptions/export.csv", Access::StaffAdmin, [&subscriptions](http::Request& req, http::Response& res) {
        auto status = http::readChoice(req, "status", {"active", "past_due", "pending", "cancelled", "expired", "trialing"});
        auto search = http::readSearch(req);
        audit::CsvExport what{"subscriptions", audit::filtersOf({{"status", status}, {"q", search}}), kSubscriptionColumns};
        audit::streamCsv(res, subscriptions.database(), audit::actorOf(req), std::move(what), [&subscriptions, status, search](csv::Writer& out) {
            subscriptions.staffExport(status, search, [&out](const AdminSubscription& s) { writeSubscription(out, s); });
        });
    });

    router.post("/api/v1/account/subscriptions/{id}/cancel", Access::SignedIn,
                [&subscriptions, &account](http::Request& req, http::Response& res) {
                    const auto id = http::idParam(req, "subscription_not_found", "No such subscription.");
                    const auto& userId = req.caller()->userId;
                    ownSubscription(account, userId, id); // another's is 404 before anything is read
                    http::Body body(req);
                    const bool atPeriodEnd = atPeriodEndOf(body);
                    body.check();
                    subscriptions.cancel(audit::actorOf(req), userId, id, atPeriodEnd, std::nullopt, http::idempotencyKey(req));
                    res.json(200, ownSubscription(account, userId, id));
                });

    router.post("/api/v1/account/subscriptions/{id}/resume", Access::SignedIn,
                [&subscriptions, &account](http::Request& req, http::Response& res) {
                    const auto id = http::idParam(req, "subscription_not_found", "No such subscription.");
                    const auto& userId = req.caller()->userId;
                    ownSubscription(account, userId, id);
                    http::Body body(req);
                    body.check();
                    subscriptions.resume(audit::actorOf(req), userId, id, http::idempotencyKey(req));
                    res.json(200, ownSubscription(account, userId, id));
                });

    router.get("/api/v1/account/subscriptions/{id}/change-preview", Access::SignedIn,
               [&subscriptions, &account](http::Request& req, http::Response& res) {
                   const auto id = http::idParam(req, "subscription_not_found", "No such subscription.");
                   ownSubscription(account, req.caller()->userId, id);
                   const auto preview = subscriptions.preview(req.caller()->userId, id, planIdOf(req.query("priceId")));
                   const auto& p = preview.proration;
                   res.json(200, {{"amount_due_now", p.amountDueNow},
                                  {"currency", preview.currency},
                                  {"credit", p.credit},
                                  {"charge", p.charge},
                                  {"balance_after", p.balanceAfter},
                                  {"next_renewal_at", db::timestampFromEpoch(p.nextRenewalAt)},
                                  {"next_renewal_amount", p.nextRenewalAmount},
                                  {"plan", {{"id", preview.plan.id}, {"name", preview.plan.name}, {"price_amount", preview.plan.amount}}}});
               }, http::Store::Never);

    router.post("/api/v1/account/subscriptions/{id}/change-plan", Access::SignedIn,
                [&subscriptions, &account](http::Request& req, http::Response& res) {
                    const auto id = http::idParam(req, "subscription_not_found", "No such subscription.");
                    const auto& userId = req.caller()->userId;
                    ownSubscription(account, userId, id);
                    http::Body body(req);
                    auto planId = body.optText("priceId");
                    body.check();
                    subscriptions.changePlan(audit::actorOf(req), userId, id, planIdOf(planId), http::idempotencyKey(req));
                    res.json(200, ownSubscription(account, userId, id));
                });

    // A refund of the latest paid invoice: {amount, reason}; an optional Idempotency-Key header makes
    // a repeat of the same request answer without refunding again (as an order's refund).
    router.post("/api/v1/admin/subscriptions/{id}/refunds", Access::StaffAdmin,
                [&subscriptions](http::Request& req, http::Response& res) {
                    const auto id = http::idParam(req, "subscription_not_found", "No such subscription.");
                    const auto key = http::idempotencyKey(req);
                    http::Body body(req, http::Body::Style::Fields422, http::Body::Empty::Refused);
                    auto amount = body.optInteger("amount");
                    if (!body.failed("amount") && (!amount || *amount < 1 || *amount > 100000000))
                        body.fail("amount", "Enter the amount to refund in cents, at least 1.");
                    auto reason = body.optLine("reason", kMaxReasonChars);
                    body.check();
                    const auto refund = subscriptions.refund(audit::actorOf(req), id, *amount, reason, key);
                    res.json(201, {{"id", refund.id},
                                   {"amount", refund.amount},
                                   {"currency", refund.currency},
                                   {"status", refund.status},
                                   {"reason", refund.reason ? nlohmann::json(*refund.reason) : nlohmann::json(nullptr)},
                                   {"provider_refund_id", refund.providerRefundId ? nlohmann::json(*refund.providerRefundId)
                                                                                  : nlohmann::json(nullptr)},
                                   {"created_at", refund.createdAt}});
                });

    router.post("/api/v1/admin/subscriptions/{id}/cancel", Access::StaffAdmin,
                [&subscriptions](http::Request& req, http::Response& res) {
                    const auto id = http::idParam(req, "subscription_not_found", "No such subscription.");
                    http::Body body(req);
                    const bool atPeriodEnd = atPeriodEndOf(body);
                    const auto reason = body.requiredLine("reason", kMaxReasonChars);
                    body.check();
                    subscriptions.cancel(audit::actorOf(req), std::nullopt, id, atPeriodEnd, reason, http::idempotencyKey(req));
                    auto item = subscriptions.staffFind(id);
                    if (!item) throw ApiError::notFound("subscription_not_found", "No such subscription.");
                    res.json(200, toJson(*item));
                });
}

} // namespace storefront::billing
