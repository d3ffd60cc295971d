// The local test provider's pages: a hosted checkout and a billing portal, rendered here (not by
// the React app) because they stand in for the payment provider's own site. Every page carries a
// TEST MODE banner; no card details are asked for.
#include "billing/routes.h"

#include "billing/orders/rules.h"
#include "billing/orders/shipping.h"
#include "billing/provider/stripe_form.h"
#include "catalog/money.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/String.h>

#include <algorithm>
#include <map>

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
fieldset{border:1px solid #e2e8f0;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;font-size:.9rem;margin:.6rem 0 .2rem}
input,select{width:100%;box-sizing:border-box;padding:.5rem .6rem;border:1px solid #cbd5e1;border-radius:.4rem;font-size:1rem}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#dc2626}
.field-error{color:#991b1b;font-size:.85rem;margin:.2rem 0 0}
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

// A posted form's fields; 400 malformed_form when it cannot be read.
std::map<std::string, std::string> readForm(http::Request& req) {
    std::map<std::string, std::string> form;
    try {
        for (auto& [name, value] : decodeForm(req.body())) form[name] = std::move(value);
    } catch (const std::invalid_argument&) {
        throw ApiError(http::ErrorKind::BadRequest, "malformed_form", "The form could not be read.");
    }
    return form;
}

// The card outcome a renewal form chose: succeeded or declined (422 naming the field otherwise).
std::string cardOutcome(std::map<std::string, std::string>& form) {
    const auto outcome = form["outcome"];
    if (outcome != "succeeded" && outcome != "declined")
        throw ApiError::validation({{"outcome", "Choose succeeded or declined."}}, "Choose succeeded or declined.");
    return outcome;
}

// Back to the billing page the form came from (its `return`), else `answer` as JSON (a script).
void backToPortalOr(http::Response& res, std::map<std::string, std::string>& form, const nlohmann::json& answer) {
    const auto back = form["return"];
    if (isSafeReturnPath(back) && back.rfind("/pay/test/portal/", 0) == 0) seeOther(res, back);
    else res.json(200, answer);
}

// The shipping fields of the pay form: the posted values kept, each error beside its field.
std::string shippingFields(const std::vector<std::string>& countries, const std::map<std::string, std::string>& values,
                           const std::map<std::string, std::string>& errors) {
    auto value = [&](const char* name) {
        auto it = values.find(name);
        return it == values.end() ? std::string() : it->second;
    };
    auto error = [&](const char* name) {
        auto it = errors.find(name);
        if (it == errors.end()) return std::string();
        return "<p class=\"field-error\" id=\"" + std::string(name) + "-error\">" + escapeHtml(it->second) + "</p>";
    };
    auto invalid = [&](const char* name) {
        return errors.contains(name) ? std::string(" aria-invalid=\"true\" aria-describedby=\"") + name + "-error\"" : std::string();
    };
    auto input = [&](const char* name, const std::string& label, std::size_t maxLength, const char* autocomplete,
                     bool required, const char* type = "text") {
        return "<label for=\"" + std::string(name) + "\">" + escapeHtml(label) + (required ? "" : " (optional)") +
               "</label><input id=\"" + name + "\" name=\"" + name + "\" type=\"" + type + "\" maxlength=\"" +
               std::to_string(maxLength) + "\" autocomplete=\"" + autocomplete + "\" value=\"" + escapeHtml(value(name)) +
               "\"" + (required ? " required" : "") + invalid(name) + ">" + error(name);
    };
    std::string chosen = value("country");
    if (chosen.empty() && !countries.empty()) chosen = countries.front();
    std::string html = "<fieldset><legend>Shipping address</legend>";
    html += input("name", "Full name", kMaxAddressLine, "shipping name", true);
    html += input("line1", "Address line 1", kMaxAddressLine, "shipping address-line1", true);
    html += input("line2", "Address line 2", kMaxAddressLine, "shipping address-line2", false);
    html += input("city", "Town or city", kMaxAddressLine, "shipping address-level2", true);
    html += input("postal_code", "Postcode", kMaxPostalCode, "shipping postal-code", true);
    html += "<label for=\"country\">Country</label><select id=\"country\" name=\"country\" autocomplete=\"shipping country\" required" +
            invalid("country") + ">";
    for (const auto& code : countries)
        html += "<option value=\"" + escapeHtml(code) + "\"" + (Poco::toUpper(chosen) == code ? " selected" : "") + ">" +
                escapeHtml(countryName(code)) + "</option>";
    html += "</select>" + error("country");
    html += input("phone", "Phone (for the courier)", kMaxPhone, "tel", true, "tel");
    html += "</fieldset>";
    return html;
}

// Dates on these test pages are informational: the UTC day, labelled as such.
std::string utcDate(const std::string& iso) {
    return iso.substr(0, 10) + " (UTC)";
}

// The hosted-checkout page. `form` and `errors`: a pay form sent back with its shipping errors.
std::string checkoutPage(const LocalProvider& provider, const LocalProvider::Session& view, const std::string& siteName,
                         bool declined, const std::map<std::string, std::string>& form = {},
                         const std::map<std::string, std::string>& errors = {}) {
    const std::string base = "/pay/test/" + view.id;
    std::string body = "<h1>Pay " + escapeHtml(siteName) + "</h1>";
    body += "<div class=\"line\"><span>" + escapeHtml(view.itemName) + " &times; " + std::to_string(view.quantity) +
            "</span><span>" + escapeHtml(catalog::formatMoney(view.unitAmount, view.currency)) + "</span></div>";
    std::string total = catalog::formatMoney(view.amountTotal, view.currency) + " " + view.currency;
    if (view.mode == "subscription") total += " " + frequency(view.interval, view.intervalCount);
    body += "<div class=\"line total\"><span>Total (GST included)</span><span>" + escapeHtml(total) + "</span></div>";
    if (view.status == "open" || view.status == "creating") {
        if (declined)
            body += "<p class=\"alert\" role=\"alert\">Your card was declined. No payment was taken. Try again or "
                    "cancel.</p>";
        if (!errors.empty())
            body += "<p class=\"alert\" role=\"alert\">Check the shipping address: nothing was charged.</p>";
        body += "<p class=\"muted\">Choose what the test buyer does.</p>";
        // A trial charges nothing today: the button says what it does.
        const std::string pay = view.trialDays > 0 ? "Start the " + std::to_string(view.trialDays) + "-day free trial"
                                                   : "Pay " + catalog::formatMoney(view.amountTotal, view.currency);
        if (view.collectsShipping)
            body += "<form method=\"post\" action=\"" + escapeHtml(base + "/pay") + "\" novalidate>" +
                    shippingFields(provider.shippingCountries(), form, errors) +
                    "<button type=\"submit\" class=\"pay\">" + escapeHtml(pay) + "</button></form>";
        else
            body += button(base + "/pay", "pay", pay);
        body += button(base + "/decline", "decline", "Decline (simulate a declined card)");
        body += button(base + "/cancel", "", "Cancel and return to the store");
    } else if (view.status == "completed") {
        body += "<p class=\"note\" role=\"status\">This checkout is paid.</p><p><a href=\"" + escapeHtml(view.successUrl) +
                "\">Return to the store</a></p>";
    } else {
        body += "<p class=\"alert\" role=\"alert\">This checkout has expired. Nothing was charged.</p><p><a href=\"/\">"
                "Back to the store</a></p>";
    }
    return page("Checkout", siteName, body);
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
        html(res, 200, checkoutPage(provider, *view, siteName, req.query("declined").has_value()));
    }, http::Store::Never);

    router.post("/pay/test/{session}/pay", http::Access::Anyone, [&provider, siteName](http::Request& req, http::Response& res) {
        auto view = provider.session(req.param("session"));
        if (!view) throw ApiError::notFound("checkout_not_found", "No such checkout.");
        std::optional<ShippingAddress> address;
        if (view->collectsShipping && view->status == "open") {
            // The address is checked here, as Stripe's page checks it before it takes the money:
            // a bad field shows the page again (422) with the values kept and nothing paid.
            auto form = readForm(req);
            ShippingAddress valid;
            auto errors = validateAddress(form, provider.shippingCountries(), valid);
            if (!errors.empty()) {
                html(res, 422, checkoutPage(provider, *view, siteName, false, form, errors));
                return;
            }
            address = std::move(valid);
        }
        if (provider.pay(view->id, address)) seeOther(res, view->successUrl);
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
            if (sub.cancelAtPeriodEnd) body += "<p class=\"muted\">Set to end at the period end.</p>";
            // Renewals on demand: what Stripe does at the period end, with the card's outcome chosen here.
            if (sub.status == "active" || sub.status == "trialing" || sub.status == "past_due") {
                const std::string renew = "/pay/test/subscriptions/" + sub.id + "/renew";
                // Renew now plays the next renewal at once, with the card outcome set for it.
                body += "<form method=\"post\" action=\"" + escapeHtml(renew) + "\"><input type=\"hidden\" name=\"outcome\" "
                        "value=\"" + std::string(sub.nextRenewalDeclines ? "declined" : "succeeded") +
                        "\"><input type=\"hidden\" name=\"return\" value=\"" + escapeHtml(base) +
                        "\"><button type=\"submit\" class=\"pay\">Renew now</button></form>";
                // The outcome of the renewal at the period's end, as the label says (nothing now).
                const std::string outcome = "/pay/test/subscriptions/" + sub.id + "/outcome";
                if (sub.nextRenewalDeclines) body += "<p class=\"muted\">The next renewal will be declined.</p>";
                body += "<form method=\"post\" action=\"" + escapeHtml(outcome) + "\"><input type=\"hidden\" name=\"outcome\" "
                        "value=\"" + std::string(sub.nextRenewalDeclines ? "succeeded" : "declined") +
                        "\"><input type=\"hidden\" name=\"return\" value=\"" + escapeHtml(base) + "\"><button type=\"submit\" class=\"" +
                        (sub.nextRenewalDeclines ? "pay\">Let the next renewal succeed" : "decline\">Decline the next renewal") +
                        "</button></form>";
            }
            if (sub.status == "active" || sub.status == "trialing" || sub.status == "pending" || sub.status == "past_due")
                body += "<p><a href=\"" + escapeHtml(base + "/cancel/" + sub.id) + "\">Cancel " + escapeHtml(sub.productName) +
                        "&hellip;</a></p>"; // a confirmation first, as the dashboard asks
        }
        body += "<p><a href=\"" + escapeHtml(portal->returnUrl) + "\">Return to " + escapeHtml(siteName) + "</a></p>";
        html(res, 200, page("Billing portal", siteName, body));
    }, http::Store::Never);

    // A renewal now with the card outcome chosen (development only, like every /pay/test page).
    router.post("/pay/test/subscriptions/{subscription}/renew", http::Access::Anyone,
                [&provider](http::Request& req, http::Response& res) {
                    auto form = readForm(req);
                    const auto outcome = cardOutcome(form);
                    if (!provider.renew(req.param("subscription"), outcome))
                        throw ApiError::notFound("subscription_not_found", "No such test-mode subscription, or it has ended.");
                    backToPortalOr(res, form, {{"renewed", true}, {"outcome", outcome}});
                }, http::Store::Never);

    // The card's outcome of the renewal at the period's end (development only, like every /pay/test page).
    router.post("/pay/test/subscriptions/{subscription}/outcome", http::Access::Anyone,
                [&provider](http::Request& req, http::Response& res) {
                    auto form = readForm(req);
                    const auto outcome = cardOutcome(form);
                    if (!provider.setRenewalOutcome(req.param("subscription"), outcome))
                        throw ApiError::notFound("subscription_not_found", "No such test-mode subscription, or it has ended.");
                    backToPortalOr(res, form, {{"next_renewal_outcome", outcome}});
                }, http::Store::Never);

    // Cancelling says what it does before it does it.
    router.get("/pay/test/portal/{token}/cancel/{subscription}", http::Access::Anyone,
               [&provider, siteName](http::Request& req, http::Response& res) {
                   const std::string token = req.param("token");
                   auto view = provider.portal(token);
                   const std::string subscription = req.param("subscription");
                   const LocalProvider::PortalSubscription* sub = nullptr;
                   if (view)
                       for (const auto& s : view->subscriptions)
                           if (s.id == subscription) sub = &s;
                   if (!sub) {
                       html(res, 404, page("Billing portal", siteName,
                                           "<h1>Not found</h1><p>This billing link has expired or does not list that "
                                           "subscription.</p><p><a href=\"/dashboard\">Back to your dashboard</a></p>"));
                       return;
                   }
                   const std::string base = "/pay/test/portal/" + token;
                   std::string body = "<h1>Cancel " + escapeHtml(sub->productName) + "?</h1><p>Access ends immediately and "
                                      "no further payments are taken. Nothing is refunded.</p>";
                   body += button(base + "/cancel/" + sub->id, "decline", "Cancel " + sub->productName + " now");
                   body += "<p><a href=\"" + escapeHtml(base) + "\">Keep " + escapeHtml(sub->productName) + "</a></p>";
                   html(res, 200, page("Cancel subscription", siteName, body));
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
