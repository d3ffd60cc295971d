// The local test provider's pages: a hosted checkout and a billing portal, rendered here (not by
// the React app) because they stand in for the payment provider's own site. Every page carries a
// TEST MODE banner; no card details are asked for.
#include "billing/routes.h"

#include "catalog/money.h"
#include "common/text.h"
#include "http/api_error.h"

#include <algorithm>

namespace storefront::billing {

namespace {

using common::escapeHtml;
using http::ApiError;

constexpr const char* kStyle = R"css(
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
.banner{background:#f59e0b;color:#1c1917;font-weight:700;text-align:center;padding:.6rem 1rem;letter-spacing:.02em}
main{max-width:32rem;margin:2.5rem auto;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:2rem}
h1{font-size:1.4rem;margin:0 0 1rem}
.muted{color:#475569;font-size:.9rem}
.line{display:flex;justify-content:space-between;gap:1rem;padding:.5rem 0;border-bottom:1px solid #e2e8f0}
.total{font-size:1.25rem;font-weight:700}
.alert{background:#fee2e2;color:#991b1b;border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0}
.note{background:#ecfdf5;color:#065f46;border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0}
form{margin:.75rem 0 0}
button{width:100%;padding:.8rem 1rem;border-radius:.5rem;border:1px solid #cbd5e1;font-size:1rem;cursor:pointer;background:#fff}
button.pay{background:#2563eb;border-color:#2563eb;color:#fff;font-weight:600}
button.decline{color:#991b1b}
a{color:#2563eb}
)css";

std::string page(const std::string& title, const std::string& siteName, const std::string& body) {
    return "<!doctype html>\n<html lang=\"en-NZ\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">"
           "<title>" +
           escapeHtml(title) + " - " + escapeHtml(siteName) +
           " (test mode)</title><link rel=\"stylesheet\" href=\"/pay/test/assets/style.css\"></head><body>"
           "<div class=\"banner\" role=\"note\">TEST MODE: no real payment is taken. This page stands in for the card "
           "payment provider.</div><main>" +
           body + "</main></body></html>";
}

std::string frequency(const std::string& unit, int count) {
    if (count == 1) return unit == "year" ? "per year" : "per month";
    return "every " + std::to_string(count) + " " + unit + "s";
}

std::string button(const std::string& action, const std::string& cls, const std::string& label) {
    return "<form method=\"post\" action=\"" + escapeHtml(action) + "\"><button type=\"submit\" class=\"" + cls + "\">" +
           escapeHtml(label) + "</button></form>";
}

void html(http::Response& res, int status, std::string body) {
    res.text(status, "text/html; charset=utf-8", std::move(body));
}

void seeOther(http::Response& res, const std::string& location) {
    res.status = 303;
    res.body.clear();
    res.set("Location", location);
}

// Dates on these test pages are informational: the UTC day, labelled as such.
std::string utcDate(const std::string& iso) {
    return iso.substr(0, 10) + " (UTC)";
}

} // namespace

void registerLocalPages(http::Router& router, LocalProvider& provider, std::string siteName) {
    router.get("/pay/test/assets/style.css", http::Access::Anyone, [](http::Request&, http::Response& res) {
        res.text(200, "text/css; charset=utf-8", kStyle);
        res.set("Cache-Control", "public, max-age=3600");
    });

    router.get("/pay/test/{session}", http::Access::Anyone, [&provider, siteName](http::Request& req, http::Response& res) {
        auto view = provider.session(req.param("session"));
        if (!view) {
            html(res, 404, page("Checkout not found", siteName,
                                "<h1>Checkout not found</h1><p>This checkout link is not valid.</p><p><a href=\"/\">Back to the store</a></p>"));
            return;
        }
        const std::string base = "/pay/test/" + view->id;
        std::string body = "<h1>Pay " + escapeHtml(siteName) + "</h1>";
        body += "<div class=\"line\"><span>" + escapeHtml(view->itemName) + " &times; " + std::to_string(view->quantity) +
                "</span><span>" + escapeHtml(catalog::formatMoney(view->unitAmount, view->currency)) + "</span></div>";
        std::string total = catalog::formatMoney(view->amountTotal, view->currency) + " " + view->currency;
        if (view->mode == "subscription") total += " " + frequency(view->interval, view->intervalCount);
        body += "<div class=\"line total\"><span>Total (GST included)</span><span>" + escapeHtml(total) + "</span></div>";
        if (view->status == "open" || view->status == "creating") {
            if (req.query("declined"))
                body += "<p class=\"alert\" role=\"alert\">Your card was declined. No payment was taken. Try again or "
                        "cancel.</p>";
            body += "<p class=\"muted\">Choose what the test buyer does.</p>";
            body += button(base + "/pay", "pay", "Pay " + catalog::formatMoney(view->amountTotal, view->currency));
            body += button(base + "/decline", "decline", "Decline (simulate a declined card)");
            body += button(base + "/cancel", "", "Cancel and return to the store");
        } else if (view->status == "completed") {
            body += "<p class=\"note\" role=\"status\">This checkout is paid.</p><p><a href=\"" + escapeHtml(view->successUrl) +
                    "\">Return to the store</a></p>";
        } else {
            body += "<p class=\"alert\" role=\"alert\">This checkout has expired. Nothing was charged.</p><p><a href=\"/\">"
                    "Back to the store</a></p>";
        }
        html(res, 200, page("Checkout", siteName, body));
    }, http::Store::Never);

    router.post("/pay/test/{session}/pay", http::Access::Anyone, [&provider](http::Request& req, http::Response& res) {
        auto view = provider.session(req.param("session"));
        if (!view) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        if (provider.pay(view->id)) seeOther(res, view->successUrl);
        else seeOther(res, "/pay/test/" + view->id); // no longer open: the page says what happened
    }, http::Store::Never);

    router.post("/pay/test/{session}/decline", http::Access::Anyone, [&provider](http::Request& req, http::Response& res) {
        auto view = provider.session(req.param("session"));
        if (!view) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        seeOther(res, "/pay/test/" + view->id + "?declined=1");
    }, http::Store::Never);

    router.post("/pay/test/{session}/cancel", http::Access::Anyone, [&provider](http::Request& req, http::Response& res) {
        auto view = provider.session(req.param("session"));
        if (!view) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        provider.expireCheckoutSession(view->id);
        seeOther(res, view->status == "completed" ? view->successUrl : view->cancelUrl);
    }, http::Store::Never);

    router.get("/pay/test/portal/{token}", http::Access::Anyone, [&provider, siteName](http::Request& req, http::Response& res) {
        auto portal = provider.portal(req.param("token"));
        if (!portal) {
            html(res, 404, page("Billing portal", siteName,
                                "<h1>Link expired</h1><p>This billing link has expired. Open Manage Billing again.</p>"
                                "<p><a href=\"/dashboard\">Back to your dashboard</a></p>"));
            return;
        }
        const std::string base = "/pay/test/portal/" + req.param("token");
        std::string body = "<h1>Billing for your " + escapeHtml(siteName) + " account</h1>";
        if (portal->subscriptions.empty()) body += "<p>You have no test-mode subscriptions.</p>";
        for (const auto& sub : portal->subscriptions) {
            body += "<div class=\"line\"><span>" + escapeHtml(sub.productName) + "</span><span>" + escapeHtml(sub.status);
            if (sub.periodEnd) body += ", renews or ends " + escapeHtml(utcDate(*sub.periodEnd));
            body += "</span></div>";
            if (sub.status == "active" || sub.status == "trialing" || sub.status == "pending")
                body += button(base + "/cancel/" + sub.id, "decline", "Cancel " + sub.productName + " now");
        }
        body += "<p><a href=\"" + escapeHtml(portal->returnUrl) + "\">Return to " + escapeHtml(siteName) + "</a></p>";
        html(res, 200, page("Billing portal", siteName, body));
    }, http::Store::Never);

    router.post("/pay/test/portal/{token}/cancel/{subscription}", http::Access::Anyone,
                [&provider](http::Request& req, http::Response& res) {
                    const std::string token = req.param("token");
                    auto view = provider.portal(token);
                    if (!view) throw ApiError::notFound("portal_not_found", "This billing link has expired.");
                    const std::string subscription = req.param("subscription");
                    // Only a subscription this link lists (one already cancelled just shows the page again).
                    if (std::none_of(view->subscriptions.begin(), view->subscriptions.end(),
                                     [&](const LocalProvider::PortalSubscription& s) { return s.id == subscription; }))
                        throw ApiError::notFound("subscription_not_found", "No such subscription on this billing link.");
                    provider.cancelSubscription(token, subscription);
                    seeOther(res, "/pay/test/portal/" + token);
                }, http::Store::Never);
}

} // namespace storefront::billing
