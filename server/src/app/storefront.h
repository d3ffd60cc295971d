#pragma once
// Wires the whole server: database, migrations, seed, domains, routes, HTTP server, jobs.
// main() runs one; API tests start their own in-process on a free port.
#include "app/config.h"

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

private:
    void openDatabase();
    void buildModules();

    struct Parts;
    Config config_;
    std::unique_ptr<Parts> parts_;
};

} // namespace storefront::app
