#include "audit/log_entry_json.h"

namespace storefront::audit {

nlohmann::json toJson(const LogEntry& e) {
    auto opt = [](const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    return {{"id", e.id},
            {"created_at", e.createdAt},
            {"action", e.action},
            {"actor", {{"id", opt(e.actorId)}, {"email", opt(e.actorEmail)}, {"role", e.actorRole}, {"aal", opt(e.actorAal)}}},
            {"target_type", e.targetType},
            {"target_id", opt(e.targetId)},
            {"before", e.before},
            {"after", e.after},
            {"detail", e.detail},
            {"client_address", opt(e.clientAddress)}};
}

} // namespace storefront::audit
