#pragma once
// What the log formatter adds to each line a request thread writes: the request's id, and for the
// access line its fields. Both are thread-local and set only while the request is handled (or the
// access line logged), so a warning logged deep inside a handler carries the id without being
// passed it. The formatter runs in the logging thread (common/buffered_log_channel.h formats in the
// caller), which is what makes a thread-local the right carrier.
#include <cstdint>
#include <string_view>

namespace storefront::common {

// The fields of one access line, as STOREFRONT_LOG_FORMAT=json writes them.
struct AccessRecord {
    std::string_view method;
    std::string_view path;
    int status = 0;
    std::int64_t micros = 0;
    std::string_view client;
    std::string_view userId; // "" when not signed in
    std::uint64_t bytes = 0; // response body bytes
};

// The id of the request this thread is handling ("" outside a request).
std::string_view currentRequestId();
// The access line being logged on this thread, or nullptr.
const AccessRecord* currentAccessRecord();

// Sets the thread's request id for its lifetime; `id` must outlive the scope.
class RequestIdScope {
public:
    explicit RequestIdScope(std::string_view id);
    ~RequestIdScope();
    RequestIdScope(const RequestIdScope&) = delete;
    RequestIdScope& operator=(const RequestIdScope&) = delete;

private:
    std::string_view previous_;
};

// Marks the message logged in its lifetime as the access line with these fields.
class AccessRecordScope {
public:
    explicit AccessRecordScope(const AccessRecord& record);
    ~AccessRecordScope();
    AccessRecordScope(const AccessRecordScope&) = delete;
    AccessRecordScope& operator=(const AccessRecordScope&) = delete;
};

} // namespace storefront::common
