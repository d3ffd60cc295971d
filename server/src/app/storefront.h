#pragma once
// Wires the whole server: database, migrations, seed, domains, routes, HTTP server, jobs.
// main() runs one; API tests start their own in-process on a free port.
#include "app/config.h"
#include "common/clock.h"
#include "http/router.h"

#include <memory>

namespace storefront::app {

class Storefront {
public:
    // `clock`: the server's one clock (common/clock.h), handed to the database and every module
    // that reads "now"; tests pass a clock they can move.
    explicit Storefront(Config config, const Clock& clock = systemClock());
    ~Storefront();

    void start();
    // Graceful: stop accepting, finish requests in flight, stop jobs, close the database.
    void stop();
    int port() const;
    const Config& config() const { return config_; }
    const Clock& clock() const { return clock_; }
    // Every route of the running server (method, pattern, declared access): the access-matrix and
    // hostile-input tests enumerate it, so a new route is covered the day it is added.
    std::vector<http::RouteInfo> routes() const;

private:
    void openDatabase();
    void buildModules();

    struct Parts;
    Config config_;
    const Clock& clock_;
    std::unique_ptr<Parts> parts_;
};

} // namespace storefront::app
