// The fake Stripe API (see fake_stripe.h): a POCO HTTPServer whose handler records the request,
// then, under one lock, checks the key, applies an injected failure, replays or stores by
// idempotency key and routes to the endpoint.
#include "api/fake_stripe.h"

#include "billing/provider/stripe_form.h"

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/NetSSL.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/String.h>
#include <Poco/ThreadPool.h>
#include <Poco/URI.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include <unistd.h>

namespace testing_support {

namespace {

using nlohmann::json;

struct Answer {
    int status = 200;
    json body;
    bool store = true; // kept under the idempotency key (Stripe keeps results once work began)
};

struct Failure {
    int status;
    std::string message;
    std::string type;
    std::string pathPrefix;
};

struct Stored {
    std::string method;
    std::string path;
    std::map<std::string, std::string> fields;
    Answer answer;
};

std::int64_t nowSeconds() {
    return static_cast<std::int64_t>(std::time(nullptr));
}

Answer error(int status, const std::string& type, const std::string& message, const std::string& code = "",
             const std::string& param = "") {
    json e = {{"type", type}, {"message", message}};
    if (!code.empty()) e["code"] = code;
    if (!param.empty()) e["param"] = param;
    return {status, json{{"error", e}}, false};
}

Answer missing(const std::string& param) {
    return error(400, "invalid_request_error", "Missing required param: " + param + ".", "parameter_missing", param);
}

// The entries of "prefix[key]" fields: metadata from {"metadata[a]": "1"} is {"a": "1"}.
std::map<std::string, std::string> nested(const std::map<std::string, std::string>& fields, const std::string& prefix) {
    std::map<std::string, std::string> out;
    const std::string open = prefix + "[";
    for (const auto& [key, value] : fields) {
        if (key.rfind(open, 0) != 0 || key.back() != ']') continue;
        const auto inner = key.substr(open.size(), key.size() - open.size() - 1);
        if (inner.find('[') == std::string::npos) out[inner] = value;
    }
    return out;
}

std::string field(const std::map<std::string, std::string>& fields, const std::string& key) {
    auto it = fields.find(key);
    return it == fields.end() ? std::string() : it->second;
}

std::int64_t number(const std::string& text) {
    try {
        std::size_t used = 0;
        const auto value = std::stoll(text, &used);
        return used == text.size() ? value : -1;
    } catch (const std::logic_error&) {
        return -1; // not a number: the caller answers 400
    }
}

json customerJson(const FakeCustomer& c) {
    return {{"id", c.id},
            {"object", "customer"},
            {"email", c.email},
            {"metadata", c.metadata},
            {"created", nowSeconds()},
            {"livemode", false}};
}

json sessionJson(const FakeCheckoutSession& s) {
    const auto amount = number(field(s.fields, "line_items[0][price_data][unit_amount]"));
    const auto quantity = number(field(s.fields, "line_items[0][quantity]"));
    json body = {{"id", s.id},
                 {"object", "checkout.session"},
                 {"mode", s.mode},
                 {"status", s.status},
                 {"payment_status", s.status == "complete" ? "paid" : "unpaid"},
                 {"customer", s.customer.empty() ? json(nullptr) : json(s.customer)},
                 {"client_reference_id", s.clientReferenceId.empty() ? json(nullptr) : json(s.clientReferenceId)},
                 {"success_url", field(s.fields, "success_url")},
                 {"cancel_url", field(s.fields, "cancel_url")},
                 {"currency", field(s.fields, "line_items[0][price_data][currency]")},
                 {"amount_total", amount * (quantity > 0 ? quantity : 1)},
                 {"expires_at", s.expiresAt},
                 {"metadata", s.metadata},
                 {"url", s.status == "open" ? json(s.url) : json(nullptr)},
                 {"subscription", nullptr},
                 {"payment_intent", nullptr},
                 {"created", nowSeconds()},
                 {"livemode", false}};
    return body;
}

// Writes a fresh P-256 key and a self-signed certificate for 127.0.0.1 and localhost (valid for a
// day) as PEM files in the test's temporary directory; returns {key file, certificate file}.
std::pair<std::string, std::string> makeCertificate() {
    static std::atomic<int> count{0};
    const auto stem =
        ::testing::TempDir() + "fake-stripe-" + std::to_string(::getpid()) + "-" + std::to_string(++count);
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), EVP_PKEY_free);
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
    if (!key || !cert) throw std::runtime_error("cannot make a test certificate");
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), count);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400);
    X509_set_pubkey(cert.get(), key.get());
    auto* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("fake-stripe.test"), -1,
                               -1, 0);
    X509_set_issuer_name(cert.get(), name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
    for (auto [nid, value] : {std::pair{NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost"},
                              std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
        X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
        if (!ext) throw std::runtime_error("cannot make a test certificate extension");
        X509_add_ext(cert.get(), ext, -1);
        X509_EXTENSION_free(ext);
    }
    if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0)
        throw std::runtime_error("cannot sign the test certificate");
    const auto write = [](const std::string& path, const std::function<int(FILE*)>& pem) {
        std::unique_ptr<FILE, decltype(&std::fclose)> file(std::fopen(path.c_str(), "wb"), std::fclose);
        if (!file || pem(file.get()) != 1) throw std::runtime_error("cannot write " + path);
    };
    write(stem + ".key",
          [&](FILE* f) { return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr); });
    write(stem + ".crt", [&](FILE* f) { return PEM_write_X509(f, cert.get()); });
    return {stem + ".key", stem + ".crt"};
}

} // namespace

struct FakeStripe::Impl {
    std::string secretKey;
    std::string certificateFile;
    mutable std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::vector<StripeRequest> requests;
    std::vector<FakeCustomer> customers;
    std::vector<FakeCheckoutSession> sessions;
    std::vector<FakeRefund> refunds;
    std::set<std::string> canceledSubscriptions; // DELETE /v1/subscriptions/{id}
    std::map<std::string, bool> cancelAtPeriodEnd;          // POST /v1/subscriptions/{id}
    std::map<std::string, std::int64_t> subscriptionPrices; // POST /v1/subscriptions/{id} with a new price
    int portals = 0;
    int requestCount = 0;
    std::deque<Failure> failures;
    std::chrono::milliseconds delay{0};
    std::map<std::string, Stored> idempotency;
    Poco::ThreadPool pool{2, 16};
    std::unique_ptr<Poco::Net::HTTPServer> server;

    FakeCustomer* findCustomer(const std::string& id) {
        for (auto& c : customers)
            if (c.id == id) return &c;
        return nullptr;
    }
    FakeCheckoutSession* findSession(const std::string& id) {
        for (auto& s : sessions)
            if (s.id == id) return &s;
        return nullptr;
    }

    // Everything after the body is read; called with the lock held.
    Answer answer(StripeRequest& r) {
        const auto auth = r.header("authorization");
        if (auth.empty())
            return error(401, "invalid_request_error",
                         "You did not provide an API key. You need to provide your API key in the Authorization "
                         "header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').");
        if (auth != "Bearer " + secretKey) {
            const auto given = auth.rfind("Bearer ", 0) == 0 ? auth.substr(7) : auth;
            const auto masked =
                given.size() > 4 ? given.substr(0, 8) + "****" + given.substr(given.size() - 4) : "****";
            return error(401, "invalid_request_error", "Invalid API Key provided: " + masked);
        }
        for (auto it = failures.begin(); it != failures.end(); ++it) {
            if (r.path.rfind(it->pathPrefix, 0) != 0) continue;
            auto failure = error(it->status, it->type, it->message);
            failures.erase(it);
            return failure;
        }
        const auto key = r.header("idempotency-key");
        if (r.method == "POST" && !key.empty()) {
            if (auto it = idempotency.find(key); it != idempotency.end()) {
                if (it->second.method != r.method || it->second.path != r.path || it->second.fields != r.fields)
                    return error(400, "idempotency_error",
                                 "Keys for idempotent requests can only be used with the same parameters they were "
                                 "first used with. Try using a key other than '" +
                                     key + "' if you meant to execute a different request.");
                r.replayed = true;
                return it->second.answer;
            }
        }
        auto result = route(r);
        if (r.method == "POST" && !key.empty() && result.store) idempotency[key] = {r.method, r.path, r.fields, result};
        return result;
    }

    Answer route(const StripeRequest& r) {
        const std::string base = "/v1/checkout/sessions";
        if (r.method == "POST" && r.path == "/v1/customers") return createCustomer(r);
        if (r.method == "POST" && r.path == base) return createSession(r);
        if (r.method == "POST" && r.path == "/v1/billing_portal/sessions") return createPortal(r);
        if (r.method == "POST" && r.path == "/v1/refunds") return createRefund(r);
        const std::string subscriptions = "/v1/subscriptions/";
        if (r.path.rfind(subscriptions, 0) == 0) {
            std::string id;
            Poco::URI::decode(r.path.substr(subscriptions.size()), id);
            if (!id.empty() && id.find('/') == std::string::npos) {
                if (r.method == "DELETE") return cancelSubscription(id);
                if (r.method == "GET") return subscriptionAnswer(id);
                if (r.method == "POST") return updateSubscription(id, r);
            }
        }
        if (r.path.rfind(base + "/", 0) == 0) {
            std::string rest = r.path.substr(base.size() + 1);
            const bool expire = rest.size() > 7 && rest.compare(rest.size() - 7, 7, "/expire") == 0;
            if (expire) rest.resize(rest.size() - 7);
            std::string id;
            Poco::URI::decode(rest, id);
            if (id.find('/') == std::string::npos) {
                if (expire && r.method == "POST") return expireSession(id);
                if (!expire && r.method == "GET") return getSession(id);
            }
        }
        return error(404, "invalid_request_error", "Unrecognized request URL (" + r.method + ": " + r.path + ").");
    }

    // Any sub_ id exists (the tests store them in the database directly); DELETE cancels it.
    Answer cancelSubscription(const std::string& id) {
        if (id.rfind("sub_", 0) != 0)
            return error(404, "invalid_request_error", "No such subscription: '" + id + "'", "resource_missing", "id");
        canceledSubscriptions.insert(id);
        return subscriptionAnswer(id);
    }

    // POST /v1/subscriptions/{id}: cancel_at_period_end, or a new inline price on its item (a plan
    // change, which must name the item and the Stripe product and may not leave the product).
    Answer updateSubscription(const std::string& id, const StripeRequest& r) {
        if (id.rfind("sub_", 0) != 0)
            return error(404, "invalid_request_error", "No such subscription: '" + id + "'", "resource_missing", "id");
        if (r.has("cancel_at_period_end")) cancelAtPeriodEnd[id] = r.field("cancel_at_period_end") == "true";
        if (r.has("items[0][price_data][unit_amount]")) {
            if (r.field("items[0][id]") != "si_fake_" + id.substr(4) || r.field("items[0][price_data][product]") != "prod_fake_1")
                return error(400, "invalid_request_error", "No such subscription item or product.");
            subscriptionPrices[id] = std::stoll(r.field("items[0][price_data][unit_amount]"));
        }
        return subscriptionAnswer(id);
    }

    Answer subscriptionAnswer(const std::string& id) {
        if (id.rfind("sub_", 0) != 0)
            return error(404, "invalid_request_error", "No such subscription: '" + id + "'", "resource_missing", "id");
        const bool canceled = canceledSubscriptions.count(id) != 0;
        const auto price = subscriptionPrices.count(id) ? subscriptionPrices[id] : 1500;
        json item = {{"id", "si_fake_" + id.substr(4)},
                     {"object", "subscription_item"},
                     {"price", {{"id", "price_fake_1"}, {"product", "prod_fake_1"}, {"unit_amount", price}}}};
        return {200, json{{"id", id},
                          {"object", "subscription"},
                          {"status", canceled ? "canceled" : "active"},
                          {"cancel_at_period_end", cancelAtPeriodEnd.count(id) ? cancelAtPeriodEnd[id] : false},
                          {"pending_update", nullptr},
                          {"items", {{"object", "list"}, {"data", json::array({item})}}},
                          {"canceled_at", canceled ? json(nowSeconds()) : json(nullptr)}}};
    }

    Answer createCustomer(const StripeRequest& r) {
        FakeCustomer c;
        c.id = "cus_fake_" + std::to_string(customers.size() + 1);
        c.email = field(r.fields, "email");
        c.metadata = nested(r.fields, "metadata");
        customers.push_back(c);
        return {200, customerJson(c)};
    }

    Answer createSession(const StripeRequest& r) {
        const auto& f = r.fields;
        const auto mode = field(f, "mode");
        if (mode.empty()) return missing("mode");
        if (mode != "payment" && mode != "subscription" && mode != "setup")
            return error(400, "invalid_request_error", "Invalid mode: must be one of payment, setup, or subscription",
                         "parameter_invalid_string", "mode");
        for (const char* p :
             {"line_items[0][quantity]", "line_items[0][price_data][currency]",
              "line_items[0][price_data][unit_amount]", "line_items[0][price_data][product_data][name]"})
            if (!r.has(p)) return missing(p);
        const bool recurring = r.has("line_items[0][price_data][recurring][interval]");
        if (mode == "subscription" && !recurring)
            return error(400, "invalid_request_error",
                         "You must provide at least one recurring price in `subscription` mode when using prices.");
        if (mode == "payment" && recurring)
            return error(400, "invalid_request_error",
                         "You specified `payment` mode but passed a recurring price. Either switch to `subscription` "
                         "mode or use only one-time prices.");
        const auto customer = field(f, "customer");
        if (!customer.empty() && !findCustomer(customer))
            return error(400, "invalid_request_error", "No such customer: '" + customer + "'", "resource_missing",
                         "customer");
        const auto now = nowSeconds();
        std::int64_t expiresAt = now + 86400;
        if (r.has("expires_at")) {
            // Stripe allows 30 minutes to 24 hours from creation; a minute of slack for slow test machines.
            expiresAt = number(field(f, "expires_at"));
            if (expiresAt < now + 1800 - 60 || expiresAt > now + 86400 + 60)
                return error(400, "invalid_request_error",
                             "The `expires_at` timestamp must be at least 30 minutes and at most 24 hours from "
                             "Checkout Session creation.",
                             "parameter_invalid_integer", "expires_at");
        }
        FakeCheckoutSession s;
        s.id = "cs_fake_" + std::to_string(sessions.size() + 1);
        s.status = "open";
        s.mode = mode;
        s.customer = customer;
        s.clientReferenceId = field(f, "client_reference_id");
        s.url = "https://checkout.stripe.test/c/pay/" + s.id;
        s.expiresAt = expiresAt;
        s.metadata = nested(f, "metadata");
        s.fields = f;
        sessions.push_back(s);
        return {200, sessionJson(s)};
    }

    Answer getSession(const std::string& id) {
        const auto* s = findSession(id);
        if (!s)
            return error(404, "invalid_request_error", "No such checkout.session: '" + id + "'", "resource_missing",
                         "id");
        return {200, sessionJson(*s)};
    }

    Answer expireSession(const std::string& id) {
        auto* s = findSession(id);
        if (!s)
            return error(404, "invalid_request_error", "No such checkout.session: '" + id + "'", "resource_missing",
                         "id");
        if (s->status != "open") {
            auto refused = error(400, "invalid_request_error",
                                 "Only Checkout Sessions with a status of `open` can be expired; this one is `" +
                                     s->status + "`.");
            refused.store = true; // the endpoint ran: Stripe keeps this answer under the key
            return refused;
        }
        s->status = "expired";
        return {200, sessionJson(*s)};
    }

    // A Refund in the pinned version's shape; it succeeds at once (as a card refund usually does).
    Answer createRefund(const StripeRequest& r) {
        const auto paymentIntent = field(r.fields, "payment_intent");
        if (paymentIntent.empty() && !r.has("charge")) return missing("payment_intent");
        const auto amount = number(field(r.fields, "amount"));
        if (r.has("amount") && amount <= 0)
            return error(400, "invalid_request_error", "Invalid positive integer", "parameter_invalid_integer", "amount");
        FakeRefund f;
        f.id = "re_fake_" + std::to_string(refunds.size() + 1);
        f.paymentIntent = paymentIntent;
        f.amount = amount;
        f.metadata = nested(r.fields, "metadata");
        refunds.push_back(f);
        json metadata = json::object();
        for (const auto& [k, v] : f.metadata) metadata[k] = v;
        return {200, json{{"id", f.id},
                          {"object", "refund"},
                          {"amount", f.amount},
                          {"balance_transaction", "txn_fake_" + std::to_string(refunds.size())},
                          {"charge", "ch_fake_" + paymentIntent},
                          {"created", nowSeconds()},
                          {"currency", "nzd"},
                          {"destination_details", {{"card", {{"type", "refund"}}}, {"type", "card"}}},
                          {"metadata", metadata},
                          {"payment_intent", paymentIntent},
                          {"reason", nullptr},
                          {"receipt_number", nullptr},
                          {"source_transfer_reversal", nullptr},
                          {"status", "succeeded"},
                          {"transfer_reversal", nullptr}}};
    }

    Answer createPortal(const StripeRequest& r) {
        const auto customer = field(r.fields, "customer");
        if (customer.empty()) return missing("customer");
        if (!findCustomer(customer))
            return error(400, "invalid_request_error", "No such customer: '" + customer + "'", "resource_missing",
                         "customer");
        const auto id = "bps_fake_" + std::to_string(++portals);
        return {200, json{{"id", id},
                          {"object", "billing_portal.session"},
                          {"customer", customer},
                          {"return_url", r.has("return_url") ? json(field(r.fields, "return_url")) : json(nullptr)},
                          {"url", "https://billing.stripe.test/p/session/" + id},
                          {"created", nowSeconds()},
                          {"livemode", false}}};
    }
};

namespace {

class Handler : public Poco::Net::HTTPRequestHandler {
public:
    explicit Handler(FakeStripe::Impl& impl) : impl_(impl) {}

    void handleRequest(Poco::Net::HTTPServerRequest& in, Poco::Net::HTTPServerResponse& out) override {
        StripeRequest r;
        r.method = in.getMethod();
        const auto& uri = in.getURI();
        const auto q = uri.find('?');
        r.path = uri.substr(0, q);
        if (q != std::string::npos) r.query = uri.substr(q + 1);
        for (const auto& [name, value] : in)
            r.headers[Poco::toLower(name)] = value;
        r.body.assign(std::istreambuf_iterator<char>(in.stream()), std::istreambuf_iterator<char>());

        Answer answer;
        bool readable = true;
        try {
            for (auto& [key, value] : storefront::billing::decodeForm(r.body))
                r.fields[key] = value;
        } catch (const std::invalid_argument& e) {
            readable = false;
            answer = error(400, "invalid_request_error", std::string("Invalid request body: ") + e.what());
        }

        std::unique_lock lock(impl_.mutex);
        const auto delay = std::exchange(impl_.delay, std::chrono::milliseconds(0));
        if (delay.count() > 0) impl_.wake.wait_for(lock, delay, [&] { return impl_.stopping; });
        if (readable) answer = impl_.answer(r);
        r.status = answer.status;
        const auto requestId = "req_fake_" + std::to_string(++impl_.requestCount);
        impl_.requests.push_back(r);
        lock.unlock();

        out.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(answer.status));
        out.setContentType("application/json");
        out.set("Request-Id", requestId);
        if (const auto version = r.header("stripe-version"); !version.empty()) out.set("Stripe-Version", version);
        if (r.replayed) out.set("Idempotent-Replayed", "true");
        const auto text = answer.body.dump();
        out.setContentLength64(static_cast<Poco::Int64>(text.size()));
        out.send() << text;
    }

private:
    FakeStripe::Impl& impl_;
};

class Factory : public Poco::Net::HTTPRequestHandlerFactory {
public:
    explicit Factory(FakeStripe::Impl& impl) : impl_(impl) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
        return new Handler(impl_);
    }

private:
    FakeStripe::Impl& impl_;
};

} // namespace

std::string StripeRequest::header(const std::string& lowerName) const {
    auto it = headers.find(lowerName);
    return it == headers.end() ? std::string() : it->second;
}

std::string StripeRequest::field(const std::string& key) const {
    return testing_support::field(fields, key);
}

FakeStripe::FakeStripe(Transport transport, std::string secretKey) : impl_(std::make_unique<Impl>()) {
    impl_->secretKey = std::move(secretKey);
    Poco::Net::ServerSocket socket;
    const Poco::Net::SocketAddress loopback("127.0.0.1", 0);
    if (transport == Transport::Https) {
        Poco::Net::initializeSSL();
        const auto [keyFile, certificateFile] = makeCertificate();
        impl_->certificateFile = certificateFile;
        Poco::Net::Context::Ptr context = new Poco::Net::Context(Poco::Net::Context::TLS_SERVER_USE, keyFile,
                                                                 certificateFile, "", Poco::Net::Context::VERIFY_NONE);
        socket = Poco::Net::SecureServerSocket(loopback, 64, context);
    } else {
        socket = Poco::Net::ServerSocket(loopback);
    }
    auto* params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(16);
    params->setKeepAliveTimeout(Poco::Timespan(2, 0));
    impl_->server = std::make_unique<Poco::Net::HTTPServer>(new Factory(*impl_), impl_->pool, socket, params);
    impl_->server->start();
}

FakeStripe::~FakeStripe() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
    }
    impl_->wake.notify_all();
    impl_->server->stopAll(true);
    impl_->pool.joinAll();
}

int FakeStripe::port() const {
    return impl_->server->port();
}

std::string FakeStripe::apiBase() const {
    return (impl_->certificateFile.empty() ? "http://127.0.0.1:" : "https://127.0.0.1:") + std::to_string(port());
}

const std::string& FakeStripe::secretKey() const {
    return impl_->secretKey;
}

const std::string& FakeStripe::certificateFile() const {
    return impl_->certificateFile;
}

std::vector<StripeRequest> FakeStripe::requests() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->requests;
}

std::vector<StripeRequest> FakeStripe::requests(const std::string& method, const std::string& path) const {
    std::lock_guard lock(impl_->mutex);
    std::vector<StripeRequest> out;
    for (const auto& r : impl_->requests)
        if (r.method == method && r.path == path) out.push_back(r);
    return out;
}

void FakeStripe::clearRequests() {
    std::lock_guard lock(impl_->mutex);
    impl_->requests.clear();
}

std::vector<FakeCustomer> FakeStripe::customers() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->customers;
}

std::vector<FakeCheckoutSession> FakeStripe::sessions() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->sessions;
}

std::vector<FakeRefund> FakeStripe::refunds() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->refunds;
}

std::optional<FakeCheckoutSession> FakeStripe::session(const std::string& id) const {
    std::lock_guard lock(impl_->mutex);
    const auto* s = impl_->findSession(id);
    if (!s) return std::nullopt;
    return *s;
}

void FakeStripe::completeSession(const std::string& id) {
    std::lock_guard lock(impl_->mutex);
    auto* s = impl_->findSession(id);
    if (!s) throw std::invalid_argument("fake Stripe has no session " + id);
    if (s->status == "open") s->status = "complete";
}

void FakeStripe::failNext(int status, const std::string& message, const std::string& type,
                          const std::string& pathPrefix) {
    std::lock_guard lock(impl_->mutex);
    impl_->failures.push_back({status, message, type, pathPrefix});
}

void FakeStripe::delayNext(std::chrono::milliseconds delay) {
    std::lock_guard lock(impl_->mutex);
    impl_->delay = delay;
}

} // namespace testing_support
