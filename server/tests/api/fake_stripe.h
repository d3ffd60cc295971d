#pragma once
// An in-process fake of the few Stripe endpoints Storefront calls, on a free loopback port:
//   POST /v1/customers, POST /v1/checkout/sessions, GET /v1/checkout/sessions/{id},
//   POST /v1/checkout/sessions/{id}/expire, POST /v1/billing_portal/sessions, POST /v1/refunds,
//   DELETE, GET and POST /v1/subscriptions/{id} (any sub_ id; DELETE cancels it, POST sets
//   cancel_at_period_end or a new inline price on its one item si_fake_<id>, product prod_fake_1).
// It records every request (headers lower-cased, the form decoded to flat bracket keys), answers
// with Stripe-shaped JSON (cus_fake_1, cs_fake_1, ...), checks the bearer key, honours
// Idempotency-Key like Stripe (same key and parameters: the first answer again, no new object;
// same key, other parameters: 400 idempotency_error) and can be told to fail or stall the next
// request. Thread-safe. It speaks plain HTTP, or HTTPS with a fresh self-signed certificate for
// 127.0.0.1 (certificateFile(): trust it through StripeSettings::caLocation).
//
// To run the real server against it, keep one FakeStripe alive longer than that server:
//   static FakeStripe stripe;
//   int port = serverWith({{"STOREFRONT_PAYMENT_PROVIDER", "stripe"},
//                          {"STRIPE_API_BASE", stripe.apiBase()}, {"STRIPE_SECRET_KEY", stripe.secretKey()}});
// then read stripe.requests() / stripe.session(id) after driving the server.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace testing_support {

struct StripeRequest {
    std::string method;
    std::string path;                           // without the query string
    std::string query;                          // raw, without '?'
    std::map<std::string, std::string> headers; // lower-case names
    std::string body;                           // raw
    std::map<std::string, std::string> fields;  // decoded: "line_items[0][price_data][unit_amount]" -> "600"
    int status = 0;                             // what the fake answered
    bool replayed = false;                      // answered from the idempotency store

    std::string header(const std::string& lowerName) const;
    std::string field(const std::string& key) const; // "" when absent
    bool has(const std::string& key) const { return fields.count(key) != 0; }
};

struct FakeCheckoutSession {
    std::string id;
    std::string status; // "open" | "complete" | "expired"
    std::string mode;
    std::string customer;
    std::string clientReferenceId;
    std::string url;
    std::int64_t expiresAt = 0;
    std::map<std::string, std::string> metadata;
    std::map<std::string, std::string> fields; // everything it was created with
};

struct FakeRefund {
    std::string id; // re_fake_1, ...
    std::string paymentIntent;
    std::int64_t amount = 0;
    std::map<std::string, std::string> metadata;
};

struct FakeCustomer {
    std::string id;
    std::string email;
    std::map<std::string, std::string> metadata;
};

class FakeStripe {
public:
    enum class Transport { Http, Https };

    explicit FakeStripe(Transport transport = Transport::Http, std::string secretKey = "sk_test_fake_4242");
    ~FakeStripe();
    FakeStripe(const FakeStripe&) = delete;
    FakeStripe& operator=(const FakeStripe&) = delete;

    int port() const;
    std::string apiBase() const; // "http://127.0.0.1:<port>" (or https://)
    const std::string& secretKey() const;
    const std::string& certificateFile() const; // PEM of the HTTPS certificate; "" for HTTP

    std::vector<StripeRequest> requests() const;
    std::vector<StripeRequest> requests(const std::string& method, const std::string& path) const;
    void clearRequests();

    std::vector<FakeCustomer> customers() const;
    std::vector<FakeCheckoutSession> sessions() const;
    std::optional<FakeCheckoutSession> session(const std::string& id) const;
    std::vector<FakeRefund> refunds() const; // POST /v1/refunds that made a refund (not replays)
    // The buyer paid: an open session becomes complete (so it can no longer be expired).
    void completeSession(const std::string& id);

    // The next request whose path starts with `pathPrefix` (any request when empty) is answered with
    // `status` and Stripe's error shape {"error": {"type", "message"}}. Like a failure before Stripe
    // begins work, it is not stored under the request's idempotency key, so a retry can succeed.
    void failNext(int status, const std::string& message, const std::string& type = "api_error",
                  const std::string& pathPrefix = "");
    // The next request waits this long before it is handled (a client with a shorter timeout gives up).
    void delayNext(std::chrono::milliseconds delay);

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace testing_support
