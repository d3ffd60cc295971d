#pragma once
// The numbered migrations (server/migrations) and the catalogue seed (server/seed), compiled in.
#include <string>
#include <vector>

namespace storefront::db {

struct EmbeddedSql {
    std::string name; // file name, e.g. 0001_core.sql
    std::string text;
};

const std::vector<EmbeddedSql>& embeddedMigrations(); // sorted by name
const std::vector<EmbeddedSql>& embeddedSeeds();      // sorted by name

} // namespace storefront::db
