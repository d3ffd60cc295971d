#pragma once
// The customer's rights under New Zealand's Privacy Act 2020 over their own account
// (docs/privacy.md): a copy of everything held about them, and closing the account. Closing
// cancels what could still charge them at the payment provider first, then, in one transaction,
// turns the user into a tombstone and keeps the orders and tax invoices the tax law requires with
// "Closed account" in place of the name and email.
#include "audit/audit.h"
#include "auth/reauthentication.h"
#include "billing/checkout_service.h"
#include "billing/provider/payment_provider.h"
#include "db/database.h"
#include "enterprise/enterprise_service.h"
#include "privacy/closing_repository.h"
#include "privacy/export_queries.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace storefront::privacy {

struct CloseInput {
    std::optional<std::string> password;
    std::optional<std::string> code; // the TOTP code, when the user has a verified factor
};

class PrivacyService {
public:
    PrivacyService(db::Database& db, auth::Reauthentication& reauth, billing::PaymentProvider& provider,
                   billing::CheckoutService& checkout, enterprise::EnterpriseService& teams)
        : db_(db), reauth_(reauth), provider_(provider), checkout_(checkout), teams_(teams) {}

    // The export document (audited as account.exported). 404 when the user is gone.
    nlohmann::json exportData(const audit::Actor& actor, const std::string& userId);

    // Closes the account. 422/400/429 from the password and code check; 409 enterprise_admin or
    // last_admin; 502 payment_provider_error when the provider cannot cancel (nothing here changed).
    void close(const audit::Actor& actor, const std::string& userId, const CloseInput& input, const auth::ClientInfo& client);

private:
    void refuseIfBlocked(db::Tx& tx, const std::string& userId);

    db::Database& db_;
    auth::Reauthentication& reauth_;
    billing::PaymentProvider& provider_;
    billing::CheckoutService& checkout_;
    enterprise::EnterpriseService& teams_;
    ExportQueries exports_;
    ClosingRepository closing_;
};

} // namespace storefront::privacy
