#pragma once
// What an area (auth, catalog, billing, ...) gives the server: its routes and its background
// work. Each area has a module (<area>/module.h) that builds its parts from its settings and the
// shared services it is handed; app/storefront.cpp builds the modules in order and loops over
// them. Only this header is shared: an area never includes another area's module.
#include <functional>
#include <string_view>

namespace storefront::http {
class Router;
}
namespace storefront::db {
class Database;
}

namespace storefront {

// The background-job runner as modules see it (app/jobs.h implements it).
class Schedule {
public:
    virtual ~Schedule() = default;
    // Work run every round (at most a few seconds apart); it must be safe on several servers.
    virtual void everyRound(std::function<void()> task) = 0;
    // Housekeeping run about once an hour; same rule.
    virtual void hourly(std::function<void()> task) = 0;
};

class Module {
public:
    virtual ~Module() = default;
    virtual std::string_view name() const = 0;
    // Adds the area's routes, each with its declared access.
    virtual void routes(http::Router& router) = 0;
    // Adds the area's background work (most areas have none).
    virtual void jobs(Schedule&) {}
    // Writes the area's demo rows (the local demo only: STOREFRONT_DEMO_DATA, which `make run`
    // turns on; never production, never a test that does not ask). Called once in a database's
    // life, after every module is built and in module order, inside no transaction: open one with
    // db.write. Mark what it writes as demo data (an email under @demo.signalcraft.test, say).
    virtual void demo(db::Database&) {}
};

} // namespace storefront
