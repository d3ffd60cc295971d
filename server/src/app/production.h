#pragma once
// Production mode fails closed (docs/configuration.md, "Production mode"): with STOREFRONT_ENV
// production (the default) the server does not start while a setting would put a demo on the
// internet: the local test payment provider, mail kept in the outbox, a plain-http public URL,
// demo data, or admins without two-factor.
#include "app/config.h"

#include <string>
#include <vector>

namespace storefront::app {

// Every setting unfit for production, one message each, naming the setting and what to set it to.
// Empty in development, and for a complete production configuration.
std::vector<std::string> productionProblems(const Config& config);

// The problems as one text for an operator: a first line, then one indented line per problem and
// how to try the server locally instead. Empty when there are none.
std::string describeProductionProblems(const std::vector<std::string>& problems);

} // namespace storefront::app
