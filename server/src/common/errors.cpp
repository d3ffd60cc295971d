#include "common/errors.h"

#include <typeinfo>

namespace storefront::common {

POCO_IMPLEMENT_EXCEPTION(ConcurrentWriteException, Poco::RuntimeException, "Concurrent write")

} // namespace storefront::common
