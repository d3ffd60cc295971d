#pragma once
// Wires the whole server: database, migrations, seed, domains, routes, HTTP server, jobs.
// main() runs one; API tests start their own in-process on a free port.
#include "app/config.h"
#include "http/router.h"

#include <memory>

namespace storefront::app {

class Storefront {
public:
    explicit Storefront(Config config);
    ~Storefront();

    void start();
    // Graceful: stop accepting, finish requests in flight, stop jobs, close the database.
    void stop();
    int port() const;
    const Config& config() const { return config_; }
    // Every route of the running server (method, pattern, declared access): the access-matrix and
    // hostile-input tests enumerate it, so a new route is covered the day it is added.
    std::vector<http::RouteInfo> routes() const;

private:
    void openDatabase();
    void buildModules();

    struct Parts;
    Config config_;
    std::unique_ptr<Parts> parts_;
};

} // namespace storefront::app
