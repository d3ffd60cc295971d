#include "companion/routes.h"

#include "companion/companion_json.h"
#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"

#include <Poco/String.h>

#include <cmath>

namespace storefront::companion {

namespace {

using http::ApiError;

// ORDER BY from the allowlist, with id as the tie-breaker in the same direction (stable pages).
// Without dir: the default column (created) newest first, any other column ascending.
std::string orderOf(const http::Request& req, const std::map<std::string, std::string>& columns, const std::string& idColumn,
                    const std::string& defaultColumn) {
    const auto column = req.query("sort").value_or("");
    auto sort = http::readSort(req, columns, defaultColumn, column.empty() || column == defaultColumn);
    const bool descending = sort.orderBy.ends_with(" DESC");
    return sort.orderBy + ", " + idColumn + (descending ? " DESC" : " ASC");
}

const std::string& idOf(const http::Request& req, const char* code, const char* message) {
    const auto& id = req.param("id");
    if (!common::isUuid(id)) throw ApiError::notFound(code, message);
    return id;
}

// Optional text: trimmed, empty becomes null, at most `max` characters.
std::optional<std::string> optionalText(http::Body& body, const char* name, std::size_t max) {
    auto value = body.optText(name);
    if (!value) return std::nullopt;
    auto trimmed = Poco::trim(*value);
    if (trimmed.empty()) return std::nullopt;
    if (common::codePoints(trimmed) > max) {
        body.fail(name, "Must be at most " + std::to_string(max) + " characters.");
        return std::nullopt;
    }
    return trimmed;
}

// An optional whole number from 1 to `max` (null meaning none).
std::optional<std::int64_t> optionalCount(http::Body& body, const char* name, std::int64_t max) {
    auto value = body.optInteger(name);
    if (value && (*value < 1 || *value > max)) {
        body.fail(name, "Must be a whole number from 1 to " + std::to_string(max) + ", or empty.");
        return std::nullopt;
    }
    return value;
}

bool isCodeCharacter(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'; }

Caller callerOf(const http::Request& req) {
    const auto* c = req.caller();
    Caller caller;
    caller.userId = c->userId;
    if (!c->email.empty()) caller.email = Poco::toLower(c->email);
    if (c->claims.contains("user_metadata") && c->claims["user_metadata"].is_object()) {
        const auto& meta = c->claims["user_metadata"];
        if (meta.contains("full_name") && meta["full_name"].is_string()) {
            auto name = Poco::trim(meta["full_name"].get<std::string>());
            if (!name.empty() && common::codePoints(name) <= Limits::fullName) caller.fullName = name;
        }
    }
    return caller;
}

nlohmann::json meJson(const CompanionService& service, const Worker& worker) {
    auto json = toJson(worker);
    const bool pro = service.isPro(worker);
    json["pro_active"] = pro;
    json["certificate_limit"] = pro ? nlohmann::json(nullptr) : nlohmann::json(service.settings().freeCertificateLimit);
    return json;
}

double oneDecimal(double value) { return std::round(value * 10.0) / 10.0; }

void noStore(http::Response& res) { res.set("Cache-Control", "no-store"); }

void staffRoutes(http::Router& router, CompanionService& service, CompanionRepository& repo, SystemStatus status) {
    router.get("/api/v1/admin/wirewrite/stats", http::Access::StaffAdmin,
               [&service, status](http::Request&, http::Response& res) {
        auto s = service.stats();
        const auto total = s.workers.free + s.workers.pro;
        const auto& settings = service.settings();
        res.json(200, {{"total_users", total},
                       {"free_users", s.workers.free},
                       {"pro_users", s.workers.pro},
                       {"conversion_rate", total ? oneDecimal(100.0 * static_cast<double>(s.workers.pro) / static_cast<double>(total)) : 0.0},
                       {"total_certificates", s.certificates},
                       {"average_certificates_per_user", total ? oneDecimal(static_cast<double>(s.certificates) / static_cast<double>(total)) : 0.0},
                       {"promo_codes_used", s.redemptions},
                       {"inactive_accounts", s.inactive},
                       {"inactive_days", settings.inactivityWarnDays},
                       {"companion_app_url", settings.appUrl},
                       {"system",
                        {{"email_configured", status.mailConfigured},
                         {"inactivity_deletion_enabled", settings.inactivityEnabled},
                         {"inactivity_deletion_days", settings.inactivityDeleteDays},
                         {"free_certificate_limit", settings.freeCertificateLimit}}}});
        noStore(res);
    });

    router.get("/api/v1/admin/wirewrite/promo-codes", http::Access::StaffAdmin,
               [&repo](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        auto result = repo.listPromoCodes(page.size, page.offset());
        nlohmann::json items = nlohmann::json::array();
        for (const auto& p : result.items) items.push_back(toJson(p));
        res.json(200, http::pageJson(std::move(items), result.total, page));
        noStore(res);
    });

    router.post("/api/v1/admin/wirewrite/promo-codes", http::Access::StaffAdmin,
                [&service](http::Request& req, http::Response& res) {
        http::Body body(req);
        PromoCodeInput in;
        in.code = body.requiredText("code", Limits::code);
        if (!body.failed("code")) {
            bool ok = true;
            for (char c : in.code) ok = ok && isCodeCharacter(c);
            if (!ok) body.fail("code", "Use capital letters, digits, - and _ only.");
        }
        in.description = body.requiredText("description", Limits::description);
        in.durationMonths = optionalCount(body, "duration_months", Limits::durationMonths);
        in.maxUses = optionalCount(body, "max_uses", Limits::maxUses);
        in.expiresDays = optionalCount(body, "expires_days", Limits::expiresDays);
        body.check();
        res.json(201, toJson(service.createPromoCode(audit::actorOf(req), in)));
    });

    router.add("PATCH", "/api/v1/admin/wirewrite/promo-codes/{id}", http::Access::StaffAdmin,
               [&service](http::Request& req, http::Response& res) {
        const auto& id = idOf(req, "promo_code_not_found", "Promo code not found.");
        http::Body body(req);
        auto active = body.optBoolean("active");
        if (!active && !body.failed("active")) body.fail("active", "This field is required.");
        body.check();
        res.json(200, toJson(service.setPromoCodeActive(audit::actorOf(req), id, *active)));
    });

    router.get("/api/v1/admin/wirewrite/workers", http::Access::StaffAdmin,
               [&repo](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        ListQuery q;
        q.search = http::readSearch(req);
        q.filter = http::readChoice(req, "tier", {"free", "pro"});
        q.orderBy = orderOf(req, {{"name", "w.full_name"}, {"tier", "w.entitlement"}, {"joined", "w.created_at"}}, "w.id", "joined");
        q.limit = page.size;
        q.offset = page.offset();
        auto counts = repo.tierCounts();
        q.scopeRows = !q.filter ? counts.free + counts.pro : *q.filter == "pro" ? counts.pro : counts.free;
        if (!q.search) q.knownTotal = q.scopeRows;
        auto result = repo.listWorkers(q);
        nlohmann::json items = nlohmann::json::array();
        for (const auto& w : result.items) items.push_back(toJson(w));
        auto json = http::pageJson(std::move(items), result.total, page, result.totalCapped);
        json["counts"] = {{"all", counts.free + counts.pro}, {"free", counts.free}, {"pro", counts.pro}};
        res.json(200, json);
        noStore(res);
    });

    router.add("PATCH", "/api/v1/admin/wirewrite/workers/{id}", http::Access::StaffAdmin,
               [&service](http::Request& req, http::Response& res) {
        const auto& id = idOf(req, "worker_not_found", "Worker not found.");
        http::Body body(req);
        auto entitlement = body.optText("entitlement");
        if (!body.failed("entitlement") && (!entitlement || (*entitlement != "free" && *entitlement != "pro")))
            body.fail("entitlement", "Must be free or pro.");
        body.check();
        res.json(200, toJson(service.setEntitlement(audit::actorOf(req), id, *entitlement)));
    });

    router.get("/api/v1/admin/wirewrite/certificates", http::Access::StaffAdmin,
               [&repo](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        ListQuery q;
        q.search = http::readSearch(req);
        q.filter = http::readChoice(req, "status", {"draft", "issued"});
        q.orderBy = orderOf(req, {{"number", "c.certificate_number"}, {"status", "c.status"}, {"created", "c.created_at"}}, "c.id",
                            "created");
        q.limit = page.size;
        q.offset = page.offset();
        auto counts = repo.statusCounts();
        q.scopeRows = !q.filter ? counts.draft + counts.issued : *q.filter == "issued" ? counts.issued : counts.draft;
        if (!q.search) q.knownTotal = q.scopeRows;
        auto result = repo.listCertificates(q);
        nlohmann::json items = nlohmann::json::array();
        for (const auto& c : result.items) items.push_back(toJson(c));
        auto json = http::pageJson(std::move(items), result.total, page, result.totalCapped);
        json["counts"] = {{"all", counts.draft + counts.issued}, {"draft", counts.draft}, {"issued", counts.issued}};
        res.json(200, json);
        noStore(res);
    });
}

CertificateInput certificateInput(http::Request& req) {
    http::Body body(req);
    CertificateInput in;
    in.siteLocation = optionalText(body, "site_location", Limits::siteLocation);
    body.check();
    return in;
}

void appRoutes(http::Router& router, CompanionService& service, CompanionRepository& repo) {
    router.get("/api/v1/wirewrite/me", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        res.json(200, meJson(service, service.workerFor(callerOf(req))));
        noStore(res);
    });

    router.put("/api/v1/wirewrite/me", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        http::Body body(req);
        ProfileInput in;
        in.fullName = optionalText(body, "full_name", Limits::fullName);
        in.licenceNumber = optionalText(body, "ewrb_licence_number", Limits::licenceNumber);
        body.check();
        auto worker = service.workerFor(callerOf(req));
        // A member left out keeps its value; null or empty text clears it.
        if (!body.json().contains("full_name")) in.fullName = worker.fullName;
        if (!body.json().contains("ewrb_licence_number")) in.licenceNumber = worker.licenceNumber;
        res.json(200, meJson(service, service.updateProfile(worker, in)));
    });

    router.get("/api/v1/wirewrite/certificates", http::Access::SignedIn,
               [&service, &repo](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        ListQuery q;
        q.search = http::readSearch(req);
        q.filter = http::readChoice(req, "status", {"draft", "issued"});
        q.orderBy = "c.created_at DESC, c.id DESC";
        q.limit = page.size;
        q.offset = page.offset();
        auto worker = service.workerFor(callerOf(req));
        auto result = repo.listWorkerCertificates(worker.id, q);
        nlohmann::json items = nlohmann::json::array();
        for (const auto& c : result.items) items.push_back(toJson(c));
        res.json(200, http::pageJson(std::move(items), result.total, page));
        noStore(res);
    });

    router.post("/api/v1/wirewrite/certificates", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        auto in = certificateInput(req);
        auto worker = service.workerFor(callerOf(req));
        res.json(201, toJson(service.createCertificate(worker, in)));
    });

    router.get("/api/v1/wirewrite/certificates/{id}", http::Access::SignedIn,
               [&service](http::Request& req, http::Response& res) {
        const auto& id = idOf(req, "certificate_not_found", "Certificate not found.");
        auto worker = service.workerFor(callerOf(req));
        res.json(200, toJson(service.certificate(worker, id)));
        noStore(res);
    });

    router.add("PATCH", "/api/v1/wirewrite/certificates/{id}", http::Access::SignedIn,
               [&service](http::Request& req, http::Response& res) {
        const auto& id = idOf(req, "certificate_not_found", "Certificate not found.");
        auto in = certificateInput(req);
        auto worker = service.workerFor(callerOf(req));
        res.json(200, toJson(service.updateCertificate(worker, id, in)));
    });

    router.post("/api/v1/wirewrite/certificates/{id}/issue", http::Access::SignedIn,
                [&service](http::Request& req, http::Response& res) {
        const auto& id = idOf(req, "certificate_not_found", "Certificate not found.");
        auto worker = service.workerFor(callerOf(req));
        res.json(200, toJson(service.issueCertificate(worker, id)));
    });

    router.post("/api/v1/wirewrite/redeem", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        http::Body body(req);
        auto code = body.requiredText("code", Limits::code);
        body.check();
        // Codes are case-insensitive: stored upper case, compared upper case (ASCII, as stored).
        auto worker = service.workerFor(callerOf(req));
        res.json(200, meJson(service, service.redeem(worker, Poco::toUpper(code))));
    });
}

} // namespace

void registerRoutes(http::Router& router, CompanionService& service, CompanionRepository& repo, SystemStatus status) {
    staffRoutes(router, service, repo, status);
    appRoutes(router, service, repo);
}

} // namespace storefront::companion
