#include "common/log_context.h"

namespace storefront::common {

namespace {
thread_local std::string_view tlsRequestId;
thread_local const AccessRecord* tlsAccess = nullptr;
} // namespace

std::string_view currentRequestId() { return tlsRequestId; }
const AccessRecord* currentAccessRecord() { return tlsAccess; }

RequestIdScope::RequestIdScope(std::string_view id) : previous_(tlsRequestId) { tlsRequestId = id; }
RequestIdScope::~RequestIdScope() { tlsRequestId = previous_; }

AccessRecordScope::AccessRecordScope(const AccessRecord& record) { tlsAccess = &record; }
AccessRecordScope::~AccessRecordScope() { tlsAccess = nullptr; }

} // namespace storefront::common
