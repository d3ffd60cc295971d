// Issue 14, hostile input: a seeded, table-driven generator sends thousands of malformed,
// oversized and malicious requests to every route the router knows, each as a caller the route
// allows (so the input reaches the handler). Every answer must be a 4xx JSON error with a code (or
// a 2xx where the input happened to be valid), never a 5xx; the requests that are invalid by
// construction must leave every table as it was (rate-limit counters and job leases aside).
// HOSTILE_SEED=<n> replays a run (the seed is printed).
#include "api/billing_support.h"
#include "api/companion_support.h"
#include "api/enterprise_support.h"
#include "api/matrix_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>

using namespace testing_support;
using storefront::http::Access;

namespace {

// Placeholder a body is dumped with, then replaced by raw JSON text nlohmann cannot write (1e400).
const std::string kRawMarker = "\"@@hostile-raw@@\"";

struct HostileCase {
    std::string kind;   // what is hostile about it, for the report
    std::string method; // GET, POST, ...
    std::string path;   // with query
    std::string body;
    std::optional<std::string> contentType; // nullopt: no Content-Type header
    Headers extra;
    bool invalid = false;    // invalid by construction: must be a 4xx and change nothing
};

using HostileList = std::vector<std::pair<HostileCase, std::string>>; // a case and the principal sending it

HostileCase hostile(std::string kind, std::string method, std::string path, std::string body,
                    std::optional<std::string> contentType, bool invalid) {
    HostileCase c;
    c.kind = std::move(kind);
    c.method = std::move(method);
    c.path = std::move(path);
    c.body = std::move(body);
    c.contentType = std::move(contentType);
    c.invalid = invalid;
    return c;
}

// Tables the requests may change although they are refused: throttles count refused attempts;
// the background jobs renew their leases on a timer; the mail queue's rows change state as other
// tests' mail goes out (that no mail was queued is checked apart, by id).
const std::vector<std::string> kHostileSnapshotExcept = {"rate_limit_counters", "job_leases", "mail_outbox"};

// One valid body per write route (field names and types are what the generator mutates). Routes
// that use up their row (DELETE, pay, issue, ...) get only hostile ids, never a valid call.
nlohmann::json validBodyFor(const std::string& method, const std::string& pattern, const std::string& slug,
                            const std::string& productId) {
    const auto email = newEmail("hostile");
    const std::map<std::pair<std::string, std::string>, nlohmann::json> bodies = {
        {{"POST", "/api/v1/admin/products"},
         {{"name", "Hostile cable"}, {"slug", unique("hostile")}, {"type", "physical"}, {"description", "<p>Hi</p>"},
          {"price_nzd", 1200}, {"stock_quantity", 4}, {"track_inventory", true}, {"is_active", false}}},
        {{"PATCH", "/api/v1/admin/products/{id}"}, {{"name", "Hostile cable two"}, {"is_active", true}, {"stock_quantity", 3}}},
        {{"POST", "/api/v1/admin/products/{id}/plans"},
         {{"name", "Monthly"}, {"price", "9.00"}, {"currency", "NZD"}, {"billing_frequency_value", 1},
          {"billing_frequency_unit", "month"}}},
        {{"PATCH", "/api/v1/admin/plans/{id}"}, {{"name", "Yearly"}, {"price", "90.00"}}},
        {{"POST", "/api/v1/admin/enterprise-accounts"},
         {{"company_name", unique("Hostile Ltd")}, {"billing_email", "billing@example.nz"}, {"admin_email", email},
          {"max_licenses", 3}}},
        {{"PATCH", "/api/v1/admin/enterprise-accounts/{id}"},
         {{"is_active", true}, {"max_licenses", 8}, {"billing_email", "new@example.nz"}, {"company_name", "Hostile Two Ltd"}}},
        {{"POST", "/api/v1/admin/enterprise-accounts/{id}/licences"}, {{"product_id", productId}, {"quantity", 1}}},
        {{"PATCH", "/api/v1/admin/enterprise-accounts/{id}/licences/{licenceId}"}, {{"quantity", 2}}},
        {{"POST", "/api/v1/enterprise/members"}, {{"email", email}}},
        {{"POST", "/auth/v1/signup"}, {{"email", email}, {"password", "Kea-hostile-2024"}, {"data", {{"full_name", "Ana"}}}}},
        {{"POST", "/auth/v1/token"}, {{"email", email}, {"password", "Kea-hostile-2024"}}},
        {{"PUT", "/auth/v1/user"}, {{"data", {{"full_name", "Ana Hostile"}}}}},
        {{"POST", "/auth/v1/recover"}, {{"email", email}}},
        {{"POST", "/auth/v1/verify"}, {{"type", "signup"}, {"token", "not-a-token"}, {"email", email}}},
        {{"POST", "/auth/v1/factors"}, {{"factor_type", "totp"}, {"friendly_name", "Phone"}}},
        {{"POST", "/auth/v1/factors/{id}/challenge"}, nlohmann::json::object()},
        {{"POST", "/auth/v1/factors/{id}/verify"}, {{"challenge_id", storefront::db::newId()}, {"code", "123456"}}},
        {{"POST", "/auth/v1/admin/users"},
         {{"email", email}, {"password", "Kea-hostile-2024"}, {"email_confirm", true}, {"user_metadata", {{"full_name", "Ana"}}}}},
        {{"PUT", "/auth/v1/admin/users/{id}"}, {{"user_metadata", {{"full_name", "Ana Two"}}}, {"email_confirm", true}}},
        {{"POST", "/auth/v1/invite"}, {{"email", email}, {"data", {{"full_name", "Ana"}}}}},
        {{"POST", "/auth/v1/admin/generate_link"}, {{"type", "recovery"}, {"email", email}}},
        {{"PATCH", "/api/v1/admin/orders/{id}"}, {{"status", "paid"}, {"note", "Checked by hand"}}},
        {{"POST", "/api/v1/admin/customers/{id}/resend-confirmation"}, nlohmann::json::object()},
        {{"POST", "/api/v1/admin/customers/{id}/send-recovery"}, nlohmann::json::object()},
        {{"PUT", "/api/v1/admin/customers/{id}/roles/admin"}, nlohmann::json::object()},
        {{"DELETE", "/api/v1/admin/customers/{id}/factors"}, {{"reason", "Lost their phone"}}},
        {{"POST", "/api/v1/admin/orders/{id}/cancel"}, {{"reason", "Customer changed their mind"}, {"restock", false}}},
        {{"PUT", "/api/v1/admin/orders/{id}/shipping-address"},
         {{"shipping_address", {{"name", "Aroha Ngata"}, {"line1", "1 Queen St"}, {"city", "Auckland"}, {"postal_code", "1010"}, {"country", "NZ"}}}}},
        {{"POST", "/api/v1/admin/orders/{id}/refunds"}, {{"amount", 100}, {"reason", "Returned unopened"}, {"restock", false}}},
        {{"POST", "/api/v1/admin/orders/bulk-ship"}, {{"order_ids", {storefront::db::newId()}}, {"carrier", "NZ Post"}}},
        {{"POST", "/api/v1/admin/mail/{id}/retry"}, nlohmann::json::object()},
        {{"PATCH", "/api/v1/admin/enquiries/{id}"}, {{"handled", true}}},
        {{"POST", "/functions/v1/create-checkout-session"}, {{"productSlug", slug}, {"quantity", 1}, {"returnPath", "/dashboard"}}},
        {{"POST", "/functions/v1/create-portal-session"}, nlohmann::json::object()},
        {{"POST", "/functions/v1/validate-subscription"}, {{"productSlug", slug}}},
        {{"POST", "/webhooks/stripe"}, {{"id", "evt_hostile"}, {"type", "checkout.session.completed"}, {"data", {{"object", nlohmann::json::object()}}}}},
        {{"POST", "/api/v1/contact"},
         {{"name", "Aroha Ngata"}, {"email", email}, {"company", "Waka Traffic"}, {"phone", "021 555 0101"}, {"message", "Please quote."}}},
        {{"POST", "/functions/v1/send-contact-email"},
         {{"name", "Aroha Ngata"}, {"email", email}, {"company", "Waka Traffic"}, {"phone", "021 555 0101"}, {"message", "Please quote."}}},
        {{"POST", "/api/v1/admin/wirewrite/promo-codes"},
         {{"code", newCode("HOSTILE")}, {"description", "hostile"}, {"duration_months", 1}, {"max_uses", 5}, {"expires_days", 30}}},
        {{"PATCH", "/api/v1/admin/wirewrite/promo-codes/{id}"}, {{"active", false}}},
        {{"PATCH", "/api/v1/admin/wirewrite/workers/{id}"}, {{"entitlement", "pro"}}},
        {{"PUT", "/api/v1/wirewrite/me"}, {{"full_name", "Tama Hostile"}, {"ewrb_licence_number", "E12345"}}},
        {{"POST", "/api/v1/wirewrite/certificates"}, {{"site_location", "1 Hostile Road"}}},
        {{"PATCH", "/api/v1/wirewrite/certificates/{id}"}, {{"site_location", "2 Hostile Road"}}},
        {{"POST", "/api/v1/wirewrite/redeem"}, {{"code", "NO-SUCH-CODE"}}},
        // Well-formed but never the caller's password: closing is refused, nothing changes.
        {{"DELETE", "/api/v1/account"}, {{"password", "Not-the-password-2024"}, {"code", "123456"}}},
        // No members; the body must still be a JSON object.
        {{"POST", "/api/v1/account/recovery-codes"}, nlohmann::json::object()},
        {{"POST", "/api/v1/account/subscriptions/{id}/resume"}, nlohmann::json::object()},
        {{"POST", "/api/v1/admin/subscriptions/{id}/refunds"}, {{"amount", 100}, {"reason", "Charged twice"}}},
        {{"POST", "/api/v1/account/subscriptions/{id}/change-plan"}, {{"priceId", kYearlyPlanId}}},
    };
    auto it = bodies.find({method, pattern});
    return it == bodies.end() ? nlohmann::json() : it->second;
}

// Routes whose only valid call uses up their row, changes a shared fixture (a local renewal or its
// outcome), or ends the caller's session.
bool hostileIdsOnly(const storefront::http::RouteInfo& route) {
    // Closing an account needs the caller's password, which no generated body has.
    if (route.method == "DELETE" && route.pattern == "/api/v1/account") return false;
    if (route.method == "DELETE") return true;
    if (route.pattern == "/auth/v1/logout") return true;
    if (route.pattern == "/api/v1/admin/images") return true; // binary bodies: sent below on its own
    const auto last = route.pattern.substr(route.pattern.rfind('/') + 1);
    return route.method == "POST" && (last == "pay" || last == "decline" || last == "cancel" || last == "issue" || last == "renew" || last == "outcome" ||
                                      route.pattern.find("/cancel/") != std::string::npos);
}

std::string principalFor(const storefront::http::RouteInfo& route) {
    switch (route.access) {
    case Access::Anyone: return "visitor";
    case Access::SignedInAnyAal:
    case Access::SignedIn:
        return route.pattern.starts_with("/auth/v1/factors") ? "customer_mfa_aal2" : "customer_aal1";
    case Access::EnterpriseAdmin: return "enterprise_admin";
    case Access::StaffAdmin: return "staff_aal2";
    }
    return "visitor";
}

// Values of the wrong JSON type for a member whose valid value is `valid` (raw JSON text).
std::vector<std::string> wrongTypes(const nlohmann::json& valid) {
    if (valid.is_string()) return {"12345", "true", "[]", "{}", "[\"a\"]", "{\"a\":1}", "1e400", "-0", "18446744073709551616"};
    // ("" is left out: the product form sends it for an empty stock field, meaning "not tracked".)
    if (valid.is_number()) return {"\"12\"", "\"NaN\"", "\"1e400\"", "true", "[]", "{}", "1e400", "[1]"};
    if (valid.is_boolean()) return {"\"true\"", "1", "0", "\"yes\"", "[]", "{}"};
    if (valid.is_object()) return {"\"x\"", "1", "[]", "true"};
    if (valid.is_array()) return {"\"x\"", "1", "{}", "true"};
    return {};
}

// Values of the right type (or null) that may be valid or not: the answer may be 2xx or 4xx.
std::vector<std::string> edgeValues(const nlohmann::json& valid) {
    const std::string huge(10000, 'A');
    if (valid.is_string())
        return {"null", "\"\"", "\"' OR '1'='1'; DROP TABLE users; --\"", "\"<script>alert(1)</script><img src=x onerror=alert(1)>\"",
                "\"a\\u0000b\"", "\"" + huge + "\"", "\"..%2f..%2fetc%2fpasswd\"", "\"\\u202e\\ud83d\\ude00 \\u00e9t\\u00e9\"",
                "\"   \""};
    if (valid.is_number())
        return {"null", "\"\"", "9007199254740992", "18446744073709551616", "-9223372036854775809", "-0", "-1", "1e308", "0.5", "0"};
    if (valid.is_boolean() || valid.is_object() || valid.is_array()) return {"null"};
    return {};
}

std::string withMember(const nlohmann::json& body, const std::string& name, const std::string& raw) {
    auto copy = body;
    copy[name] = "@@hostile-raw@@";
    auto text = copy.dump();
    auto at = text.find(kRawMarker);
    return text.replace(at, kRawMarker.size(), raw);
}

// Bodies that are not a JSON object at all.
std::vector<std::string> brokenBodies(const nlohmann::json& valid, std::mt19937& random) {
    std::vector<std::string> out = {
        std::string(10000, '['),
        [] {
            std::string s;
            for (int i = 0; i < 5000; ++i) s += "{\"a\":";
            return s;
        }(),
        "1e400", "NaN", "[]", "\"text\"", "{\"a\":1,}", "{'single': 'quotes'}", "{\"a\":1}{\"b\":2}",
    };
    const auto text = valid.dump();
    if (text.size() > 4) out.push_back(text.substr(0, text.size() - 3)); // cut short
    // Invalid UTF-8 inside a string.
    if (auto quote = text.find("\":\""); quote != std::string::npos) {
        auto bad = text;
        bad.insert(quote + 3, "\xff\xfe\xc3\x28");
        out.push_back(bad);
    } else {
        out.push_back("{\"x\":\"\xff\xfe\xc3\x28\"}");
    }
    // Random bytes inside an object's first key (so they cannot happen to close it as "{}").
    std::uniform_int_distribution<int> byte(0, 255), length(1, 200);
    for (int i = 0; i < 3; ++i) {
        std::string junk = "{\"";
        for (int n = length(random); n > 0; --n) junk += static_cast<char>(byte(random));
        out.push_back(junk);
    }
    return out;
}

const std::vector<std::string> kHostileIds = {
    "..%2f..%2f..%2fetc%2fpasswd", "%2e%2e", "..", "%00", "abc%00def", "%ff%fe", "'%20OR%20'1'%3D'1",
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "00000000-0000-0000-0000-000000000000", std::string(3000, 'a'),
    "1e400", "-1", "%252e%252e%252f",
};

const std::vector<std::string> kHostileQueries = {
    "?page=-1", "?page=99999999999999999999999", "?page_size=1e400", "?page=NaN&page_size=-0", "?page=1&page=2&page_size=5&page_size=500",
    "?sort=name;DROP%20TABLE%20users--&dir=sideways", "?sort=created_at&dir=desc&dir=asc", "?q=%00", "?q=%ff%fe%c3%28",
    "?q=" + std::string(5000, 'q'), "?q=%27%20OR%201%3D1--", "?status=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "?tier=..%2f..%2fetc%2fpasswd", "?%zz=1&=&&==", "?token=..%2f&type=signup&redirect_to=javascript:alert(1)",
    "?scope=%00",
};

bool isApiPath(const std::string& path) {
    return path.starts_with("/api/") || path.starts_with("/auth/") || path.starts_with("/functions/") || path.starts_with("/webhooks/");
}

HttpResult sendCase(const HostileCase& c, const std::string& token) {
    Headers h = as(newClientIp(), token);
    h["Accept"] = "application/json";
    if (c.contentType) h["Content-Type"] = *c.contentType;
    for (const auto& [k, v] : c.extra) h[k] = v;
    try {
        return http(env().port, c.method, c.path, c.body, h);
    } catch (const std::exception& e) {
        HttpResult failed;
        failed.status = 0;
        failed.body = std::string("no answer: ") + e.what();
        return failed;
    }
}

// What is wrong with an answer (empty when it is acceptable).
std::string judge(const HostileCase& c, const HttpResult& r) {
    // Every answer is ours, including to a header POCO cannot read (431 JSON, lingering close).
    if (r.status == 0) return r.body;
    if (r.status >= 500) return "a " + std::to_string(r.status);
    if (c.invalid && (r.status < 400 || r.status >= 500)) return "an invalid request answered " + std::to_string(r.status);
    if (r.status >= 400 && isApiPath(c.path)) {
        auto json = nlohmann::json::parse(r.body, nullptr, false);
        if (!json.is_object() || !json.contains("code")) return "a " + std::to_string(r.status) + " without a JSON code";
    }
    // An error tells the client what to fix, never how the server is built: no SQL or driver
    // message, no source file or path on the machine, no exception or stack trace.
    if (r.status >= 400) {
        static const char* const internals[] = {"SQLSTATE", "sqlite", "SQLite", "postgres", "PostgreSQL", "syntax error",
                                                "constraint", ".cpp", ".h:", "/work/", "/usr/", "/tmp/", "Exception",
                                                "exception", "what()", "std::", "Poco::", "storefront::", "#0 ", "stack"};
        for (const char* word : internals)
            if (r.body.find(word) != std::string::npos) return "a " + std::to_string(r.status) + " body naming '" + word + "'";
    }
    return "";
}

} // namespace

TEST(HostileInput, EveryRouteRefusesBadInputWithA4xxAndChangesNothing) {
    const auto started = std::chrono::steady_clock::now();
    unsigned seed = std::random_device{}();
    if (const char* s = std::getenv("HOSTILE_SEED"); s && *s) seed = static_cast<unsigned>(std::strtoul(s, nullptr, 10));
    std::cout << "hostile input: seed " << seed << " (HOSTILE_SEED=" << seed << " replays it)\n";
    std::mt19937 random(seed);

    auto cast = newCast();
    Fixtures fixtures(*cast);
    const auto shop = createHardware(100000, 1500);
    const auto licensable = createLicensableProduct();
    auto routes = serverRoutes();
    ASSERT_GT(routes.size(), 50u);

    HostileList invalid, other;
    for (const auto& route : routes) {
        const auto who = principalFor(route);
        auto path = fixtures.fill(route.pattern);
        // The sign-in grant is a query parameter; without it every body is refused before it is read.
        if (route.pattern == "/auth/v1/token") path += "?grant_type=password";
        ASSERT_FALSE(path.empty()) << route.pattern << ": no fixture (see matrix_support.cpp)";
        const bool hasBody = route.method != "GET";
        const auto valid = hasBody ? validBodyFor(route.method, route.pattern, shop.slug, licensable.id) : nlohmann::json();
        const std::string validText = valid.is_null() ? "" : valid.dump();
        const std::optional<std::string> json = hasBody ? std::optional<std::string>("application/json") : std::nullopt;

        // Hostile ids and slugs in every path parameter (the rest of the request valid).
        for (const auto& key : parameterKeys(route.pattern)) {
            for (const auto& id : kHostileIds)
                invalid.push_back({hostile("hostile id", route.method, fixtures.fillWith(route.pattern, key, id), validText, json, true), who});
        }
        if (hostileIdsOnly(route)) continue;

        if (!hasBody) {
            for (const auto& q : kHostileQueries) other.push_back({hostile("hostile query", "GET", path + q, "", std::nullopt, false), who});
            continue;
        }
        ASSERT_FALSE(valid.is_null()) << route.method << " " << route.pattern
                                      << ": no valid body in hostile_input_api_test.cpp; add one";
        // The valid body itself, with extra members, and with each member missing.
        other.push_back({hostile("valid body", route.method, path, validText, json, false), who});
        auto extra = valid;
        extra["__proto__"] = {{"admin", true}};
        extra["role"] = "service_role";
        extra["is_super_admin"] = true;
        extra["id"] = storefront::db::newId();
        other.push_back({hostile("extra members", route.method, path, extra.dump(), json, false), who});
        for (const auto& [name, value] : valid.items()) {
            auto without = valid;
            without.erase(name);
            other.push_back({hostile("missing " + name, route.method, path, without.dump(), json, false), who});
            for (const auto& raw : wrongTypes(value))
                invalid.push_back({hostile("wrong type", route.method, path, withMember(valid, name, raw), json, true), who});
            for (const auto& raw : edgeValues(value))
                other.push_back({hostile("edge value", route.method, path, withMember(valid, name, raw), json, false), who});
        }
        for (const auto& broken : brokenBodies(valid, random))
            invalid.push_back({hostile("malformed body", route.method, path, broken, json, true), who});
        for (const std::string type : {"text/plain", "application/xml", "multipart/form-data; boundary=x",
                                       "application/x-www-form-urlencoded", "application/jsonp"})
            invalid.push_back({hostile("wrong content type", route.method, path, validText, type, true), who});
        other.push_back({hostile("no content type", route.method, path, validText, std::nullopt, false), who});
        other.push_back({hostile("json with a charset", route.method, path, validText, "application/json; charset=iso-8859-1", false), who});
    }
    // Headers POCO cannot read (answered 431 JSON by http/connection.cpp) and ones it lets through.
    for (const auto& route : routes) {
        if (route.method != "GET" || route.access == Access::Anyone) continue;
        const auto path = fixtures.fill(route.pattern);
        const auto who = principalFor(route);
        HostileCase longHeader{"overlong header", "GET", path, "", std::nullopt, {{"X-Hostile", std::string(20000, 'h')}}, true};
        invalid.push_back({longHeader, who});
        HostileCase bigAuth{"overlong bearer token", "GET", path, "", std::nullopt, {}, true};
        bigAuth.extra["Authorization"] = "Bearer " + std::string(7000, 'x');
        invalid.push_back({bigAuth, who});
        HostileCase nulAuth{"token with control bytes", "GET", path, "", std::nullopt, {{"Authorization", "Bearer a.b\x01.c"}}, true};
        invalid.push_back({nulAuth, who});
    }
    // An image upload that is not an image, and one with a lying type.
    invalid.push_back({hostile("not an image", "POST", "/api/v1/admin/images", "GIF89a....", "image/gif", true), "staff_aal2"});
    invalid.push_back({hostile("bytes that are not a PNG", "POST", "/api/v1/admin/images", std::string(300, '\0'), "image/png", true), "staff_aal2"});
    invalid.push_back({hostile("empty image", "POST", "/api/v1/admin/images", "", "image/webp", true), "staff_aal2"});
    // Bad logout scopes (a valid one would end the session).
    for (const std::string scope : {"%00", "everything", "global%00", "<script>"})
        invalid.push_back({hostile("bad logout scope", "POST", "/auth/v1/logout?scope=" + scope, "", std::nullopt, true), "customer_aal1"});

    std::shuffle(invalid.begin(), invalid.end(), random);
    std::shuffle(other.begin(), other.end(), random);

    std::size_t sent = 0, fiveHundreds = 0, problems = 0;
    std::map<std::string, std::size_t> byKind;
    auto run = [&](const HostileList& cases) {
        for (const auto& [c, who] : cases) {
            auto r = sendCase(c, cast->get(who).token);
            ++sent;
            ++byKind[c.kind];
            if (r.status >= 500) ++fiveHundreds;
            auto wrong = judge(c, r);
            if (!wrong.empty()) {
                ++problems;
                if (problems <= 60)
                    ADD_FAILURE() << c.kind << ": " << c.method << " " << c.path.substr(0, 200) << " body "
                                  << c.body.substr(0, 200) << " as " << who << ": " << wrong << " " << r.body.substr(0, 300);
            }
        }
    };

    // Rows other tests wrote may still be settling (mail going out): let them, then compare.
    settleServers();
    const auto mailBefore = textColumn("SELECT id FROM mail_outbox ORDER BY id");
    const auto before = snapshotDatabase(kHostileSnapshotExcept);
    run(invalid);

    // Bodies cut short: Content-Length promises more than is sent, then the client stops sending.
    for (const auto& target : {"/api/v1/contact", "/auth/v1/signup", "/api/v1/admin/products"}) {
        const std::string partial = "{\"name\": \"Aroha\", \"em";
        const std::string request = std::string("POST ") + target +
                                    " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 400\r\n"
                                    "X-Forwarded-For: " + newClientIp() + "\r\n\r\n" + partial;
        const auto r = rawHttp(env().port, request, /*halfClose=*/true, 10);
        ++sent;
        ++byKind["body cut short"];
        EXPECT_TRUE(r.status == 0 || (r.status >= 400 && r.status < 500)) << target << ": " << r.body.substr(0, 300);
        if (r.status >= 500) ++fiveHundreds;
        std::cout << "  body cut short, " << target << ": " << (r.status ? std::to_string(r.status) : std::string("connection closed"))
                  << (r.body.find("incomplete_body") != std::string::npos ? " incomplete_body" : "") << "\n";
    }
    // Request lines POCO cannot parse: our JSON 400 with the security headers, then the close.
    for (const auto& [line, halfClose] : std::vector<std::pair<std::string, bool>>{
             {"GARBAGE\r\n\r\n", true},
             {std::string(40, 'M') + " /api/v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", false},
             {"GET /api/v1/products HTTP/1.1.1.1.1\r\nHost: 127.0.0.1\r\n\r\n", false}}) {
        const auto r = rawHttp(env().port, line, halfClose, 10);
        ++sent;
        ++byKind["malformed request line"];
        EXPECT_EQ(r.status, 400) << line.substr(0, 60) << ": " << r.body.substr(0, 300);
        EXPECT_EQ(nlohmann::json::parse(r.body, nullptr, false).value("code", ""), "bad_request") << r.body.substr(0, 300);
        EXPECT_NE(r.header("content-security-policy").find("frame-ancestors 'none'"), std::string::npos);
        EXPECT_EQ(r.header("connection"), "close");
    }
    // Slow senders, on a server whose read timeout is 2 s (30 s by default): a few bytes, then
    // nothing. A stalled body gets 408 request_timeout; stalled headers a closed connection (POCO's
    // own reader gives up before any handler runs). Either way the thread is freed in seconds.
    {
        const int slowPort = serverWith({{"STOREFRONT_HTTP_READ_TIMEOUT_SECONDS", "2"}});
        const std::vector<std::pair<std::string, std::string>> stalls = {
            {"stalled body", "POST /api/v1/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Content-Length: 200\r\nX-Forwarded-For: " + newClientIp() + "\r\n\r\n{\"name\": \"Ar"},
            {"stalled headers", "GET /api/v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-"},
        };
        for (const auto& [kind, bytes] : stalls) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto r = rawHttp(slowPort, bytes, /*halfClose=*/false, 20);
            const int status = r.status;
            const auto& answer = r.body;
            const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
            ++sent;
            ++byKind[kind];
            std::cout << "  " << kind << ": " << (status ? std::to_string(status) : std::string("connection closed")) << " after "
                      << waited << " ms\n";
            EXPECT_LT(waited, 15000) << kind;
            if (kind == "stalled body") {
                EXPECT_EQ(status, 408) << answer.substr(0, 300);
                EXPECT_NE(answer.find("\"request_timeout\""), std::string::npos) << answer.substr(0, 300);
            } else {
                EXPECT_TRUE(status == 0 || (status >= 400 && status < 500)) << answer.substr(0, 300);
            }
        }
        EXPECT_EQ(http(slowPort, "GET", "/healthz").status, 200);
    }
    const auto after = snapshotDatabase(kHostileSnapshotExcept);
    const auto diff = snapshotDiff(before, after);
    EXPECT_EQ(diff, "") << "the invalid requests changed rows";
    EXPECT_EQ(textColumn("SELECT id FROM mail_outbox ORDER BY id"), mailBefore) << "the invalid requests queued mail";

    const auto invalidSent = sent;
    run(other);

    // The server is still up and answering normally.
    EXPECT_EQ(get("/healthz").status, 200);
    EXPECT_EQ(getJson("/api/v1/products").status, 200);
    EXPECT_EQ(fiveHundreds, 0u);
    EXPECT_GE(sent, 2000u);
    const auto seconds =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count() / 1000.0;
    std::cout << "hostile input: " << sent << " requests (seed " << seed << "), " << fiveHundreds << " 5xx, snapshot "
              << (diff.empty() ? "equal" : "DIFFERENT") << " after " << invalidSent << " invalid requests, " << problems
              << " unacceptable answers (" << seconds << " s)\n";
    for (const auto& [kind, n] : byKind) std::cout << "  " << kind << ": " << n << "\n";
}
