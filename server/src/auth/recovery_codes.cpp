#include "auth/recovery_codes.h"

#include "auth/second_factor.h"

namespace storefront::auth {

using http::ApiError;
using http::ErrorKind;

nlohmann::json RecoveryCodes::generate(const Principal& principal, const ClientInfo& client) {
    if (principal.aal != "aal2")
        throw ApiError(ErrorKind::Forbidden, "insufficient_aal",
                       "Turn on two-factor authentication and enter a code before making recovery codes.");
    const auto codes = newRecoveryCodes();
    std::vector<std::string> hashes;
    for (const auto& code : codes) hashes.push_back(recoveryCodeHash(*normalizeRecoveryCode(code)));
    std::string createdAt;
    ctx_.db.write([&](db::Tx& tx) {
        ctx_.recoveryCodes.replace(tx, principal.userId, hashes);
        recordEvent(tx, "recovery_codes_generated", principal.userId, actorOf(principal, client), {{"count", codes.size()}});
        createdAt = tx.clock().nowTimestamp();
    });
    return {{"codes", codes}, {"remaining", codes.size()}, {"created_at", createdAt}};
}

nlohmann::json RecoveryCodes::status(const Principal& principal) {
    auto s = ctx_.db.session();
    const auto count = ctx_.recoveryCodes.count(s, principal.userId);
    return {{"remaining", count.remaining},
            {"created_at", count.createdAt ? nlohmann::json(*count.createdAt) : nlohmann::json(nullptr)}};
}

} // namespace storefront::auth
