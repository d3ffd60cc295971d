#include "auth/routes.h"

#include "http/body.h"
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

using Style = http::Body::Style;
using Empty = http::Body::Empty;

constexpr std::size_t kMaxFriendlyNameBytes = 120;

ClientInfo clientOf(const Request& req) { return {req.clientAddress(), req.header("User-Agent")}; }

// A JSON body, GoTrue-style (the first wrongly typed member is a 400 validation_failed). Bodies
// are optional on some calls (logout, challenge, delete): there an empty body is {}.
http::Body gotrueBody(Request& req, Empty empty = Empty::Refused) { return http::Body(req, Style::GoTrue, empty); }

// A member that must be an object when present; nullopt when absent or null.
std::optional<nlohmann::json> optionalObject(http::Body& body, const char* name) {
    if (!body.has(name)) return std::nullopt;
    return body.object(name);
}

std::optional<std::string> enrolmentName(http::Body& body) {
    auto name = body.optText("friendly_name");
    if (name && name->size() > kMaxFriendlyNameBytes)
        body.fail("friendly_name", "friendly_name must be text of at most 120 characters");
    if (name && name->empty()) return std::nullopt;
    return name;
}

AdminUserInput adminUserOf(http::Body& body) {
    AdminUserInput in;
    in.email = body.optText("email");
    in.password = body.optText("password");
    in.emailConfirm = body.boolean("email_confirm", false);
    in.userMetadata = optionalObject(body, "user_metadata");
    in.appMetadata = optionalObject(body, "app_metadata");
    in.banDuration = body.optText("ban_duration");
    return in;
}

// generate_link takes redirect_to, or options.redirectTo as auth-js sends it; anything else is ignored.
std::optional<std::string> linkRedirect(const nlohmann::json& json) {
    if (auto it = json.find("redirect_to"); it != json.end() && it->is_string()) return it->get<std::string>();
    auto options = json.find("options");
    if (options == json.end() || !options->is_object()) return std::nullopt;
    auto it = options->find("redirectTo");
    if (it != options->end() && it->is_string()) return it->get<std::string>();
    return std::nullopt;
}

int pageNumber(const Request& req, const char* name, int fallback, int max) {
    auto text = req.query(name);
    if (!text || text->empty()) return fallback;
    int value = 0;
    if (!Poco::NumberParser::tryParse(*text, value) || value < 1)
        throw ApiError(ErrorKind::BadRequest, "validation_failed", std::string(name) + " must be a positive whole number");
    return std::min(value, max);
}

} // namespace

void registerRoutes(http::Router& router, Services services, const Settings& config) {
    auto& accounts = services.accounts;
    auto& sessions = services.sessions;
    auto& factors = services.factors;
    auto& admin = services.admin;
    auto& recoveryCodes = services.recoveryCodes;
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
    router.get("/auth/v1/.well-known/jwks.json", Access::Anyone, [&sessions](Request&, Response& res) {
        res.json(200, sessions.jwks());
        res.set("Cache-Control", "public, max-age=600");
    });

    router.post("/auth/v1/signup", Access::Anyone, [&accounts](Request& req, Response& res) {
        auto body = gotrueBody(req);
        SignUpInput in;
        in.email = body.optText("email");
        in.password = body.optText("password");
        in.data = body.object("data");
        in.redirectTo = req.query("redirect_to");
        res.json(200, accounts.signUp(in, clientOf(req)));
    });
    router.post("/auth/v1/token", Access::Anyone, [&accounts, &sessions](Request& req, Response& res) {
        const auto grant = req.query("grant_type").value_or("");
        auto body = gotrueBody(req);
        if (grant == "password") {
            res.json(200, accounts.signIn({body.optText("email"), body.optText("password")}, clientOf(req)));
        } else if (grant == "refresh_token") {
            // Anything but a non-empty string is an unknown token (GoTrue's answer).
            auto token = body.json().find("refresh_token");
            const bool text = token != body.json().end() && token->is_string();
            res.json(200, sessions.refresh(text ? token->get<std::string>() : std::string(), clientOf(req)));
        } else {
            throw ApiError(ErrorKind::BadRequest, "unsupported_grant_type", "Unsupported grant type: use password or refresh_token");
        }
    }, http::Store::Never);
    router.get("/auth/v1/user", Access::SignedInAnyAal, [&accounts](Request& req, Response& res) {
        res.json(200, accounts.user(principalOf(req)));
    });
    // The web app's signed-in shell: who the user is, their roles, factors and enterprise account.
    router.get("/api/v1/account/me", Access::SignedIn, [&accounts](Request& req, Response& res) {
        res.json(200, accounts.me(principalOf(req)));
    });
    router.put("/auth/v1/user", Access::SignedInAnyAal, [&accounts](Request& req, Response& res) {
        auto body = gotrueBody(req);
        UserChanges changes;
        changes.password = body.optText("password");
        changes.currentPassword = body.optText("current_password");
        changes.email = body.optText("email");
        changes.data = optionalObject(body, "data");
        changes.redirectTo = req.query("redirect_to");
        res.json(200, accounts.update(principalOf(req), changes, clientOf(req)));
    });
    router.post("/auth/v1/logout", Access::SignedInAnyAal, [&sessions](Request& req, Response& res) {
        const auto scope = req.query("scope").value_or("global");
        if (scope != "global" && scope != "local" && scope != "others")
            throw ApiError(ErrorKind::BadRequest, "validation_failed", "scope must be global, local or others");
        sessions.logout(principalOf(req), scope, clientOf(req));
        res.noContent();
    });
    router.post("/auth/v1/recover", Access::Anyone, [&accounts](Request& req, Response& res) {
        auto body = gotrueBody(req);
        accounts.recover(body.optText("email"), req.query("redirect_to"), clientOf(req));
        res.json(200, nlohmann::json::object());
    });
    router.post("/auth/v1/verify", Access::Anyone, [&accounts](Request& req, Response& res) {
        auto body = gotrueBody(req);
        // GoTrue clients send the link's token as `token` (or `token_hash`, which we treat alike).
        const std::string type = body.optText("type").value_or("");
        auto token = body.optText("token");
        if (!token) token = body.optText("token_hash");
        res.json(200, accounts.verify(type, token.value_or(""), clientOf(req)));
    });
    // The link in an email: spend the token, then send the browser to the site with the session in
    // the URL fragment (never the query, so it stays out of server logs), or with the error.
    router.get("/auth/v1/verify", Access::Anyone, [&accounts](Request& req, Response& res) {
        const std::string target = accounts.safeRedirect(req.query("redirect_to"));
        const std::string type = req.query("type").value_or("");
        std::string fragment;
        try {
            auto session = accounts.verify(type, req.query("token").value_or(""), clientOf(req));
            fragment = "access_token=" + common::encodeUriComponent(session["access_token"].get<std::string>()) +
                       "&expires_at=" + std::to_string(session["expires_at"].get<long long>()) +
                       "&expires_in=" + std::to_string(session["expires_in"].get<int>()) +
                       "&refresh_token=" + common::encodeUriComponent(session["refresh_token"].get<std::string>()) +
                       "&token_type=bearer&type=" + common::encodeUriComponent(type);
        } catch (const ApiError& e) {
            fragment = "error=access_denied&error_code=" + common::encodeUriComponent(e.code()) +
                       "&error_description=" + common::encodeUriComponent(e.what());
        }
        res.status = 303;
        res.contentType = "text/plain; charset=utf-8";
        res.body.clear();
        res.set("Location", target + "#" + fragment);
        res.set("Referrer-Policy", "no-referrer");
    }, http::Store::Never);

    router.post("/auth/v1/factors", Access::SignedInAnyAal, [&factors](Request& req, Response& res) {
        auto body = gotrueBody(req);
        Enrolment enrolment{body.optText("factor_type").value_or(""), enrolmentName(body)};
        res.json(200, factors.enroll(principalOf(req), enrolment, clientOf(req)));
    });
    router.post("/auth/v1/factors/{id}/challenge", Access::SignedInAnyAal, [&factors](Request& req, Response& res) {
        (void)gotrueBody(req, Empty::AsObject); // no members, but a body must still be JSON
        res.json(200, factors.challenge(principalOf(req), req.param("id"), clientOf(req)));
    });
    router.post("/auth/v1/factors/{id}/verify", Access::SignedInAnyAal, [&factors](Request& req, Response& res) {
        auto body = gotrueBody(req);
        auto challengeId = body.optText("challenge_id").value_or("");
        auto code = body.optText("code").value_or("");
        res.json(200, factors.verify(principalOf(req), req.param("id"), challengeId, code, clientOf(req)));
    });
    // auth-js sends no body; the web app sends {code} (a current TOTP or recovery code).
    router.del("/auth/v1/factors/{id}", Access::SignedInAnyAal, [&factors](Request& req, Response& res) {
        auto body = gotrueBody(req, Empty::AsObject);
        res.json(200, factors.unenroll(principalOf(req), req.param("id"), body.optText("code"), clientOf(req)));
    });
    // Recovery codes: how many are left, and a new set of ten shown once (aal2).
    router.get("/api/v1/account/recovery-codes", Access::SignedIn, [&recoveryCodes](Request& req, Response& res) {
        res.json(200, recoveryCodes.status(principalOf(req)));
    });
    router.post("/api/v1/account/recovery-codes", Access::SignedIn, [&recoveryCodes](Request& req, Response& res) {
        (void)http::Body(req, Style::Fields422, Empty::AsObject); // no members, but a body must still be JSON
        res.json(200, recoveryCodes.generate(principalOf(req), clientOf(req)));
    });

    // The admin API: staff admins only (the authoriser also demands their two-factor step).
    router.get("/auth/v1/admin/users", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        const int page = pageNumber(req, "page", 1, 1000000), perPage = pageNumber(req, "per_page", 50, 1000);
        auto result = admin.list(page, perPage);
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
    router.post("/auth/v1/admin/users", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        auto body = gotrueBody(req);
        res.json(200, admin.create(principalOf(req), adminUserOf(body), clientOf(req)));
    });
    router.get("/auth/v1/admin/users/{id}", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        res.json(200, admin.get(req.param("id")));
    });
    router.put("/auth/v1/admin/users/{id}", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        auto body = gotrueBody(req);
        res.json(200, admin.update(principalOf(req), req.param("id"), adminUserOf(body), clientOf(req)));
    });
    router.del("/auth/v1/admin/users/{id}", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        auto body = gotrueBody(req, Empty::AsObject);
        res.json(200, admin.remove(principalOf(req), req.param("id"), body.boolean("should_soft_delete", false), clientOf(req)));
    });
    router.get("/auth/v1/admin/users/{id}/factors", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        res.json(200, admin.factors(req.param("id")));
    });
    router.del("/auth/v1/admin/users/{id}/factors/{factorId}", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        res.json(200, admin.removeFactor(principalOf(req), req.param("id"), req.param("factorId"), clientOf(req)));
    });
    router.post("/auth/v1/invite", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        auto body = gotrueBody(req);
        auto email = body.optText("email");
        auto data = body.object("data");
        res.json(200, admin.invite(principalOf(req), email, data, req.query("redirect_to"), clientOf(req)));
    });
    router.post("/auth/v1/admin/generate_link", Access::StaffAdmin, [&admin](Request& req, Response& res) {
        auto body = gotrueBody(req);
        LinkRequest link;
        link.type = body.optText("type").value_or("");
        link.email = body.optText("email");
        link.password = body.optText("password");
        link.data = body.object("data");
        link.redirectTo = linkRedirect(body.json());
        res.json(200, admin.generateLink(principalOf(req), link, clientOf(req)));
    });
}

} // namespace storefront::auth
