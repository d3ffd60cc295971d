#include "companion/routes.h"

#include "audit/csv_export.h"
#include "companion/companion_json.h"
#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

#include <Poco/String.h>

#include <cmath>

namespace storefront::companion {

namespace {

using http::ApiError;

// A staff list's request: page, search, one filter from `choices`, and a sort word from the
// repository's allowlist. `scope` gives the rows the filter leaves (from the maintained counts),
// which is also the total of an unsearched list.
template <class Scope>
ListQuery staffListQuery(const http::Request& req, const http::PageRequest& page, const db::SortColumns& sorts,
                         const char* filter, std::initializer_list<const char*> choices, Scope scope) {
    ListQuery q;
    q.search = http::readSearch(req);
    q.filter = http::readChoice(req, filter, choices);
    static_cast<db::PageQuery&>(q) = http::pageQuery(page, sorts.orderBy(http::readSort(req, sorts)));
    q.scopeRows = scope(q.filter);
    if (!q.search) q.knownTotal = q.scopeRows;
    return q;
}

// The field error of an optional count from 1 to `max`.
std::string orEmpty(std::int64_t max) { return "Must be a whole number from 1 to " + std::to_string(max) + ", or empty."; }

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

// The filters of an export as its audit entry records them (only those given).
nlohmann::json exportFilters(const char* filter, const std::optional<std::string>& value, const std::optional<std::string>& search,
                             const db::SortChoice& sort) {
    auto json = nlohmann::json::object();
    if (value) json[filter] = *value;
    if (search) json["q"] = *search;
    json["sort"] = sort.column;
    json["dir"] = sort.descending ? "desc" : "asc";
    return json;
}

const std::vector<std::string> kWorkerExportColumns = {"full_name", "email", "licence_number", "tier", "pro_expires_at", "certificates",
                                                 "last_active_at", "joined_at", "worker_id"};

const std::vector<std::string> kCertificateColumns = {"certificate_number", "status", "site_location", "worker_name", "worker_email",
                                                      "created_at", "issued_at", "certificate_id", "worker_id"};


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
    });

    router.get("/api/v1/admin/wirewrite/promo-codes", http::Access::StaffAdmin,
               [&repo](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        res.json(200, http::pageJson(repo.listPromoCodes(page.size, page.offset()), page));
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
        in.description = body.requiredLine("description", Limits::description);
        in.durationMonths = body.optIntegerIn("duration_months", 1, Limits::durationMonths, orEmpty(Limits::durationMonths));
        in.maxUses = body.optIntegerIn("max_uses", 1, Limits::maxUses, orEmpty(Limits::maxUses));
        in.expiresDays = body.optIntegerIn("expires_days", 1, Limits::expiresDays, orEmpty(Limits::expiresDays));
        body.check();
        res.json(201, toJson(service.createPromoCode(audit::actorOf(req), in)));
    });

    router.add("PATCH", "/api/v1/admin/wirewrite/promo-codes/{id}", http::Access::StaffAdmin,
               [&service](http::Request& req, http::Response& res) {
        const auto id = http::idParam(req, "promo_code_not_found", "Promo code not found.");
        http::Body body(req);
        auto active = body.optBoolean("active");
        if (!active && !body.failed("active")) body.fail("active", "This field is required.");
        body.check();
        res.json(200, toJson(service.setPromoCodeActive(audit::actorOf(req), id, *active)));
    });

    router.get("/api/v1/admin/wirewrite/workers", http::Access::StaffAdmin,
               [&repo](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        const auto counts = repo.tierCounts();
        const auto q = staffListQuery(req, page, CompanionRepository::kWorkerSorts, "tier", {"free", "pro"}, [&](const auto& tier) {
            return !tier ? counts.free + counts.pro : *tier == "pro" ? counts.pro : counts.free;
        });
        auto json = http::pageJson(repo.listWorkers(q), page, http::Total::MayBeCapped);
        json["counts"] = {{"all", counts.free + counts.pro}, {"free", counts.free}, {"pro", counts.pro}};
        res.json(200, json);
    });

    // The lists as CSV, with their filter, search and sort (docs/backoffice.md, "Exports").
    router.get("/api/v1/admin/wirewrite/workers/export.csv", http::Access::StaffAdmin,
               [&repo](http::Request& req, http::Response& res) {
        auto search = http::readSearch(req);
        auto tier = http::readChoice(req, "tier", {"free", "pro"});
        const auto sort = http::readSort(req, CompanionRepository::kWorkerSorts);
        audit::CsvExport what{"wirewrite-workers", exportFilters("tier", tier, search, sort), kWorkerExportColumns};
        audit::streamCsv(res, repo.database(), audit::actorOf(req), std::move(what),
                         [&repo, search, tier, order = CompanionRepository::kWorkerSorts.keyset(sort)](csv::Writer& out) {
            repo.exportWorkers(search, tier, order, [&out](const Worker& w) {
                out.text(w.fullName).text(w.email).text(w.licenceNumber).text(w.entitlement);
                out.time(audit::instantOf(w.proExpiresAt)).integer(w.certificatesCount);
                out.time(audit::instantOf(w.lastActiveAt)).time(audit::instantOf(w.createdAt)).text(w.id);
                out.endRow();
            });
        });
    });

    router.get("/api/v1/admin/wirewrite/certificates/export.csv", http::Access::StaffAdmin,
               [&repo](http::Request& req, http::Response& res) {
        auto search = http::readSearch(req);
        auto status = http::readChoice(req, "status", {"draft", "issued"});
        const auto sort = http::readSort(req, CompanionRepository::kCertificateSorts);
        audit::CsvExport what{"wirewrite-certificates", exportFilters("status", status, search, sort), kCertificateColumns};
        audit::streamCsv(res, repo.database(), audit::actorOf(req), std::move(what),
                         [&repo, search, status, order = CompanionRepository::kCertificateSorts.keyset(sort)](csv::Writer& out) {
            repo.exportCertificates(search, status, order, [&out](const Certificate& c) {
                out.text(c.number).text(c.status).text(c.siteLocation).text(c.workerName).text(c.workerEmail);
                out.time(audit::instantOf(c.createdAt)).time(audit::instantOf(c.issuedAt)).text(c.id).text(c.workerId);
                out.endRow();
            });
        });
    });

    router.add("PATCH", "/api/v1/admin/wirewrite/workers/{id}", http::Access::StaffAdmin,
               [&service](http::Request& req, http::Response& res) {
        const auto id = http::idParam(req, "worker_not_found", "Worker not found.");
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
        const auto counts = repo.statusCounts();
        const auto q = staffListQuery(req, page, CompanionRepository::kCertificateSorts, "status", {"draft", "issued"},
                                      [&](const auto& status) {
            return !status ? counts.draft + counts.issued : *status == "issued" ? counts.issued : counts.draft;
        });
        auto json = http::pageJson(repo.listCertificates(q), page, http::Total::MayBeCapped);
        json["counts"] = {{"all", counts.draft + counts.issued}, {"draft", counts.draft}, {"issued", counts.issued}};
        res.json(200, json);
    });
}

CertificateInput certificateInput(http::Request& req) {
    http::Body body(req);
    CertificateInput in;
    in.siteLocation = body.optLine("site_location", Limits::siteLocation);
    body.check();
    return in;
}

void appRoutes(http::Router& router, CompanionService& service, CompanionRepository& repo) {
    router.get("/api/v1/wirewrite/me", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        res.json(200, meJson(service, service.workerFor(callerOf(req))));
    });

    router.put("/api/v1/wirewrite/me", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        http::Body body(req);
        ProfileInput in;
        in.fullName = body.optLine("full_name", Limits::fullName);
        in.licenceNumber = body.optLine("ewrb_licence_number", Limits::licenceNumber);
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
        static_cast<db::PageQuery&>(q) = http::pageQuery(page, CompanionRepository::kCertificateSorts.orderBy()); // newest first
        q.search = http::readSearch(req);
        q.filter = http::readChoice(req, "status", {"draft", "issued"});
        auto worker = service.workerFor(callerOf(req));
        res.json(200, http::pageJson(repo.listWorkerCertificates(worker.id, q), page));
    });

    router.post("/api/v1/wirewrite/certificates", http::Access::SignedIn, [&service](http::Request& req, http::Response& res) {
        auto in = certificateInput(req);
        auto worker = service.workerFor(callerOf(req));
        res.json(201, toJson(service.createCertificate(worker, in)));
    });

    router.get("/api/v1/wirewrite/certificates/{id}", http::Access::SignedIn,
               [&service](http::Request& req, http::Response& res) {
        const auto id = http::idParam(req, "certificate_not_found", "Certificate not found.");
        auto worker = service.workerFor(callerOf(req));
        res.json(200, toJson(service.certificate(worker, id)));
    });

    router.add("PATCH", "/api/v1/wirewrite/certificates/{id}", http::Access::SignedIn,
               [&service](http::Request& req, http::Response& res) {
        const auto id = http::idParam(req, "certificate_not_found", "Certificate not found.");
        auto in = certificateInput(req);
        auto worker = service.workerFor(callerOf(req));
        res.json(200, toJson(service.updateCertificate(worker, id, in)));
    });

    router.post("/api/v1/wirewrite/certificates/{id}/issue", http::Access::SignedIn,
                [&service](http::Request& req, http::Response& res) {
        const auto id = http::idParam(req, "certificate_not_found", "Certificate not found.");
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
