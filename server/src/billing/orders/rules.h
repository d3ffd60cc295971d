#pragma once
// Billing rules that need no database: order numbers, what a stored subscription means to the
// apps (validate-subscription), provider status words, and billing-period arithmetic.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace storefront::billing {

// A new human-friendly order number, "SC-7KQ2-M9XD": 8 random Crockford base-32 characters
// (no I, L, O or U, so it reads aloud and types without confusion). Unique by index; callers retry.
std::string newOrderNumber();

// `bytes` random bytes as lower-case hex: the unguessable part of provider object ids and keys.
std::string randomHex(std::size_t bytes);

// The stored subscription an app asks about (the live one, else the newest).
struct SubscriptionState {
    std::string status;                        // active | trialing | past_due | pending | cancelled | expired
    std::optional<std::int64_t> periodEnd;     // unix seconds
    std::optional<std::int64_t> trialEnd;      // trialing: the first charge
    std::optional<std::int64_t> pastDueSince;  // past_due: the first failure of this renewal
};

// When a past-due subscription loses access: `graceDays` after its first failed renewal.
std::int64_t graceEnd(std::int64_t pastDueSince, int graceDays);

// A live subscription grants the product: status active or trialing (the SQL form of this rule is
// subscription_repository.cpp's kLive).
bool isLive(const std::string& status);

// The body of /functions/v1/validate-subscription (docs/billing.md has the table).
struct ValidationResult {
    bool valid = false;
    std::string status;                        // none | active | trial | past_due | pending | cancelled | expired
    std::optional<std::int64_t> expiresAt;     // unix seconds
    int daysRemaining = 0;
    std::string message;
};

// `graceDays`: STOREFRONT_PAST_DUE_GRACE_DAYS, how long a past-due subscription keeps access.
ValidationResult validate(const std::optional<SubscriptionState>& state, std::int64_t now, int graceDays);

// The answer for a product granted by a seat of an active enterprise account's licence: valid,
// active, no expiry (the seat lasts while the account is active and the member holds it).
ValidationResult enterpriseLicence();

// Whole days left until `end`, rounded up; 0 when `end` has passed.
int daysRemaining(std::int64_t end, std::int64_t now);

// The active-subscription result's subscription_source: words joined by '_'.
std::string subscriptionSource(const std::string& paymentProvider);

// `epochSeconds` moved on by `count` calendar months or years (UTC), day clamped to the month's
// end (31 Jan + 1 month = 28/29 Feb). `unit` is "month" or "year".
std::int64_t addInterval(std::int64_t epochSeconds, const std::string& unit, int count);

// A path on this site for a redirect: starts with '/', not '//' or '/\', no control characters,
// at most 512 bytes.
bool isSafeReturnPath(const std::string& path);

} // namespace storefront::billing
