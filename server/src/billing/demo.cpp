#include "billing/module.h"

namespace storefront::billing {

void Module::demo(db::Database&) {}

} // namespace storefront::billing
