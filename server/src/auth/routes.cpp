#include "auth/routes.h"

#include "auth/fields.h"
#include "common/text.h"
#include "http/api_error.h"

#include <Poco/NumberParser.h>

using storefront::http::Access;
using storefront::http::ApiError;
using storefront::http::ErrorKind;
using storefront::http::Request;
using storefront::http::Response;

namespace storefront::auth {

namespace {

ClientInfo clientOf(const Request& req) {
    return {req.clientAddress(), req.header("User-Agent")};
}

// Bodies are optional on some GoTrue calls (logout, challenge): an empty body is {}.
nlohmann::json bodyOf(Request& req) {
    if (req.body().empty()) return nlohmann::json::object();
    return req.json();
}

const http::Caller& callerOf(const Request& req) { return *req.caller(); }

int pageNumber(const Request& req, const char* name, int fallback, int max) {
    auto text = req.query(name);
    if (!text || text->empty()) return fallback;
    int value = 0;
    if (!Poco::NumberParser::tryParse(*text, value) || value < 1)
        throw ApiError(ErrorKind::BadRequest, "validation_failed", std::string(name) + " must be a positive whole number");
    return std::min(value, max);
}

} // namespace

void registerRoutes(http::Router& router, AuthService& service, const auth::Settings& config) {
    router.get("/auth/v1/health", Access::Anyone, [](Request&, Response& res) {
        res.json(200, {{"version", "v2"}, {"name", "storefront-auth"}, {"description", "GoTrue-compatible accounts API of the storefront"}});
    });
    router.get("/auth/v1/settings", Access::Anyone, [&config](Request&, Response& res) {
        res.json(200, {{"external", {{"email", true}, {"phone", false}, {"anonymous_users", false}}},
                       {"disable_signup", !config.signupEnabled},
                       {"mailer_autoconfirm", !config.confirmEmail},
                       {"phone_autoconfirm", false},
                       {"sms_provider", ""},
                       {"saml_enabled", false},
                       {"password_min_length", config.passwordMinLength}});
    });
    router.get("/auth/v1/.well-known/jwks.json", Access::Anyone, [&service](Request&, Response& res) {
        res.json(200, service.jwks());
        res.set("Cache-Control", "public, max-age=600");
    });

    router.post("/auth/v1/signup", Access::Anyone, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.signUp(body, req.query("redirect_to"), clientOf(req)));
    });
    router.post("/auth/v1/token", Access::Anyone, [&service](Request& req, Response& res) {
        const auto grant = req.query("grant_type").value_or("");
        auto body = req.json();
        if (grant == "password") res.json(200, service.signInWithPassword(body, clientOf(req)));
        else if (grant == "refresh_token") res.json(200, service.refresh(body, clientOf(req)));
        else throw ApiError(ErrorKind::BadRequest, "unsupported_grant_type", "Unsupported grant type: use password or refresh_token");
        res.set("Cache-Control", "no-store");
    });
    router.get("/auth/v1/user", Access::SignedInAnyAal, [&service](Request& req, Response& res) {
        res.json(200, service.user(callerOf(req)));
    });
    router.put("/auth/v1/user", Access::SignedInAnyAal, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.updateUser(callerOf(req), body, req.query("redirect_to"), clientOf(req)));
    });
    router.post("/auth/v1/logout", Access::SignedInAnyAal, [&service](Request& req, Response& res) {
        const auto scope = req.query("scope").value_or("global");
        if (scope != "global" && scope != "local" && scope != "others")
            throw ApiError(ErrorKind::BadRequest, "validation_failed", "scope must be global, local or others");
        service.logout(callerOf(req), scope);
        res.noContent();
    });
    router.post("/auth/v1/recover", Access::Anyone, [&service](Request& req, Response& res) {
        auto body = req.json();
        service.recover(body, req.query("redirect_to"), clientOf(req));
        res.json(200, nlohmann::json::object());
    });
    router.post("/auth/v1/verify", Access::Anyone, [&service](Request& req, Response& res) {
        auto body = req.json();
        // GoTrue clients send the link's token as `token` (or `token_hash`, which we treat alike).
        const std::string type = optionalString(body, "type").value_or("");
        const std::string token = optionalString(body, "token").value_or(optionalString(body, "token_hash").value_or(""));
        res.json(200, service.verify(type, token, clientOf(req)));
    });
    // The link in an email: spend the token, then send the browser to the site with the session in
    // the URL fragment (never the query, so it stays out of server logs), or with the error.
    router.get("/auth/v1/verify", Access::Anyone, [&service](Request& req, Response& res) {
        const std::string target = service.safeRedirect(req.query("redirect_to"));
        const std::string type = req.query("type").value_or("");
        std::string fragment;
        try {
            auto session = service.verify(type, req.query("token").value_or(""), clientOf(req));
            fragment = "access_token=" + common::encodeUriComponent(session["access_token"].get<std::string>()) +
                       "&expires_at=" + std::to_string(session["expires_at"].get<long long>()) +
                       "&expires_in=" + std::to_string(session["expires_in"].get<int>()) +
                       "&refresh_token=" + common::encodeUriComponent(session["refresh_token"].get<std::string>()) + "&token_type=bearer&type=" + common::encodeUriComponent(type);
        } catch (const ApiError& e) {
            fragment = "error=access_denied&error_code=" + common::encodeUriComponent(e.code()) + "&error_description=" + common::encodeUriComponent(e.what());
        }
        res.status = 303;
        res.contentType = "text/plain; charset=utf-8";
        res.body.clear();
        res.set("Location", target + "#" + fragment);
        res.set("Cache-Control", "no-store");
        res.set("Referrer-Policy", "no-referrer");
    });

    router.post("/auth/v1/factors", Access::SignedInAnyAal, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.enrollFactor(callerOf(req), body, clientOf(req)));
    });
    router.post("/auth/v1/factors/{id}/challenge", Access::SignedInAnyAal, [&service](Request& req, Response& res) {
        (void)bodyOf(req);
        res.json(200, service.challengeFactor(callerOf(req), req.param("id"), clientOf(req)));
    });
    router.post("/auth/v1/factors/{id}/verify", Access::SignedInAnyAal, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.verifyFactor(callerOf(req), req.param("id"), body, clientOf(req)));
    });
    router.del("/auth/v1/factors/{id}", Access::SignedInAnyAal, [&service](Request& req, Response& res) {
        res.json(200, service.unenrollFactor(callerOf(req), req.param("id"), clientOf(req)));
    });

    // The admin API: staff admins only (the authoriser also demands their two-factor step).
    router.get("/auth/v1/admin/users", Access::StaffAdmin, [&service](Request& req, Response& res) {
        const int page = pageNumber(req, "page", 1, 1000000), perPage = pageNumber(req, "per_page", 50, 1000);
        auto result = service.adminListUsers(page, perPage);
        res.json(200, {{"users", result.users}, {"aud", "authenticated"}});
        const long long last = std::max<long long>(1, (result.total + perPage - 1) / perPage);
        std::string links;
        auto link = [&](long long p, const char* rel) {
            links += (links.empty() ? "" : ", ") + std::string("</auth/v1/admin/users?page=") + std::to_string(p) +
                     "&per_page=" + std::to_string(perPage) + ">; rel=\"" + rel + "\"";
        };
        if (page < last) link(page + 1, "next");
        link(last, "last");
        res.set("X-Total-Count", std::to_string(result.total));
        res.set("Link", links);
    });
    router.post("/auth/v1/admin/users", Access::StaffAdmin, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.adminCreateUser(callerOf(req), body, clientOf(req)));
    });
    router.get("/auth/v1/admin/users/{id}", Access::StaffAdmin, [&service](Request& req, Response& res) {
        res.json(200, service.adminGetUser(req.param("id")));
    });
    router.put("/auth/v1/admin/users/{id}", Access::StaffAdmin, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.adminUpdateUser(callerOf(req), req.param("id"), body, clientOf(req)));
    });
    router.del("/auth/v1/admin/users/{id}", Access::StaffAdmin, [&service](Request& req, Response& res) {
        auto body = bodyOf(req);
        res.json(200, service.adminDeleteUser(callerOf(req), req.param("id"), optionalBool(body, "should_soft_delete", false), clientOf(req)));
    });
    router.get("/auth/v1/admin/users/{id}/factors", Access::StaffAdmin, [&service](Request& req, Response& res) {
        res.json(200, service.adminListFactors(req.param("id")));
    });
    router.del("/auth/v1/admin/users/{id}/factors/{factorId}", Access::StaffAdmin, [&service](Request& req, Response& res) {
        res.json(200, service.adminDeleteFactor(callerOf(req), req.param("id"), req.param("factorId"), clientOf(req)));
    });
    router.post("/auth/v1/invite", Access::StaffAdmin, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.invite(callerOf(req), body, req.query("redirect_to"), clientOf(req)));
    });
    router.post("/auth/v1/admin/generate_link", Access::StaffAdmin, [&service](Request& req, Response& res) {
        auto body = req.json();
        res.json(200, service.generateLink(callerOf(req), body, clientOf(req)));
    });
}

} // namespace storefront::auth
