// The version and commit, passed by CMake to this file only (server/CMakeLists.txt).
#include "app/metrics.h"

#ifndef STOREFRONT_VERSION
#define STOREFRONT_VERSION "unknown"
#endif
#ifndef STOREFRONT_COMMIT
#define STOREFRONT_COMMIT "unknown"
#endif

namespace storefront::app {

std::string_view buildVersion() { return STOREFRONT_VERSION; }
std::string_view buildCommit() { return STOREFRONT_COMMIT; }

} // namespace storefront::app
