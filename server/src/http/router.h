#pragma once
// The one router: method + path pattern ("/api/v1/products/{slug}") -> handler.
// Every route declares who may call it; there is no default access, so nothing is open by accident.
#include "http/request.h"
#include "http/response.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::http {

enum class Access {
    Anyone,          // public
    SignedInAnyAal,  // signed in, even before the two-factor step (the /auth/v1 session routes)
    SignedIn,        // signed in, and past the two-factor step when the user has a factor
    EnterpriseAdmin, // the admin user of an enterprise account
    StaffAdmin,      // company staff with the admin role
};

using Handler = std::function<void(Request&, Response&)>;

// Whether answers may be stored by a browser or a proxy. The router sets `Cache-Control: no-store`
// (before the handler runs) on every route that is not public: a signed-in or staff answer is
// never kept. A public route is cacheable by default and its handler says how (the catalogue,
// images, sitemap); a public route whose answer holds a secret or a moment (tokens, health,
// metrics, the test payment pages) registers with Store::Never. Error answers are no-store too
// (writeErrorResponse).
enum class Store {
    ByAccess, // no-store unless Access::Anyone
    Never,    // no-store, public or not
};

// One row of the route table as the router knows it (for tests that must cover every route).
struct RouteInfo {
    std::string method;
    std::string pattern; // as registered, e.g. "/api/v1/products/{slug}"
    Access access;
    Store store = Store::ByAccess;
};
// Decides whether the request may use a route with the given access; throws ApiError (401/403) if not.
using Authorizer = std::function<void(Request&, Access)>;
// A further check for every route of one access level, run after the authoriser has set the
// caller and the route's parameters are known (so it can ask "admin of *this* account"). The area
// that owns the rule registers it: enterprise/ for Access::EnterpriseAdmin.
using AccessCheck = std::function<void(Request&)>;

class Router {
public:
    // Request::routeIndex() when the fallback answered (http/metrics.h labels it "static").
    static constexpr int kFallbackRoute = -2;

    void add(std::string method, std::string pattern, Access access, Handler handler, Store store = Store::ByAccess);
    void get(std::string pattern, Access access, Handler h, Store store = Store::ByAccess) {
        add("GET", std::move(pattern), access, std::move(h), store);
    }
    void post(std::string pattern, Access access, Handler h, Store store = Store::ByAccess) {
        add("POST", std::move(pattern), access, std::move(h), store);
    }
    void put(std::string pattern, Access access, Handler h, Store store = Store::ByAccess) {
        add("PUT", std::move(pattern), access, std::move(h), store);
    }
    void del(std::string pattern, Access access, Handler h, Store store = Store::ByAccess) {
        add("DELETE", std::move(pattern), access, std::move(h), store);
    }

    // GET/HEAD requests that match no route (the SPA, static files).
    void fallback(Handler handler) { fallback_ = std::move(handler); }

    // Marks the GET route `pattern` (already added), or the fallback, as one the server's event
    // loop may answer itself (http/event_loop.h): its handler answers from memory (the response
    // cache, the web build) or with a brief local read, and never waits on anything slow (a
    // payment provider, a hashing worker, a stream, a lock held by a write).
    void runOnLoop(const std::string& pattern);
    void runFallbackOnLoop() { fallbackOnLoop_ = true; }
    // Whether a request with this method and (decoded) path would reach a route marked so.
    bool runsOnLoop(std::string_view method, std::string_view path) const;
    void authorizer(Authorizer authorizer) { authorizer_ = std::move(authorizer); }
    void check(Access access, AccessCheck check) { checks_.emplace_back(access, std::move(check)); }

    // The route table, in registration order.
    std::vector<RouteInfo> routes() const;

    // Finds the route, authorises, runs it. 404 / 405 (with Allow) when nothing fits.
    void dispatch(Request& request, Response& response) const;

private:
    struct Route {
        std::string method;
        std::string pattern;
        std::vector<std::string> segments;
        Access access;
        Handler handler;
        Store store;
        bool onLoop = false;
    };
    // The routes that can match a path, by its first segment: indexes into routes_, in order
    // (a route whose first segment is a parameter is in every bucket).
    const std::vector<std::size_t>& candidates(std::string_view firstSegment) const;
    std::vector<Route> routes_;
    std::map<std::string, std::vector<std::size_t>, std::less<>> byFirstSegment_;
    std::vector<std::size_t> parameterFirst_;
    Handler fallback_;
    bool fallbackOnLoop_ = false;
    Authorizer authorizer_;
    std::vector<std::pair<Access, AccessCheck>> checks_;
};

// The authoriser used until sign-in exists: public routes pass, everything else is 401.
void denyAllButPublic(Request& request, Access access);

} // namespace storefront::http
