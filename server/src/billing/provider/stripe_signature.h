#pragma once
// Stripe webhook signatures: checking the Stripe-Signature header of a delivery against its raw
// body, and producing such a header (for tests and fakes). The header is
// "t=<unix seconds>,v1=<hex>[,v1=<hex>...][,v0=<hex>]"; each v1 is the lower-case hex
// HMAC-SHA256 of "<t>.<raw body>" under an endpoint secret ("whsec_...", used whole as the key).
// A delivery is genuine when any v1 matches under any configured secret (during a rotation both
// the old and the new secret are configured) and t is within the tolerance of our clock.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::billing {

// Stripe's own libraries allow five minutes between signing and checking.
inline constexpr std::int64_t kSignatureToleranceSeconds = 300;

enum class SignatureStatus {
    Valid,
    MissingHeader,      // no header, or only blanks
    Malformed,          // not comma-separated key=value items, or no single numeric t
    NoV1Signature,      // well formed but no v1 item (v0 alone is never accepted)
    NoMatch,            // no v1 matches under any of the secrets (altered body, wrong secret)
    StaleTimestamp,     // a v1 matches, but t is further than the tolerance from now (replay, clock skew)
    NoSecretConfigured, // the list of secrets is empty: a configuration fault, not the sender's
};

struct SignatureCheck {
    SignatureStatus status = SignatureStatus::MissingHeader;
    std::int64_t timestamp = 0; // t from the header, when it could be read
    bool ok() const { return status == SignatureStatus::Valid; }
};

// A short phrase for logs: "valid", "missing header", "malformed header", "no v1 signature",
// "no matching signature", "timestamp outside tolerance", "no webhook secret configured".
std::string_view describe(SignatureStatus status);

// Checks `header` against `payload` (the raw request body, byte for byte). `nowUnix` is the
// current time in unix seconds; `toleranceSeconds` must not be negative.
SignatureCheck verifyStripeSignature(std::string_view header, std::string_view payload,
                                     const std::vector<std::string>& secrets, std::int64_t nowUnix,
                                     std::int64_t toleranceSeconds = kSignatureToleranceSeconds);

// The same against the system clock and the default tolerance.
SignatureCheck verifyStripeSignature(std::string_view header, std::string_view payload,
                                     const std::vector<std::string>& secrets);

// Lower-case hex HMAC-SHA256(secret, "<timestamp>.<payload>"): one v1 value.
std::string stripeSignature(std::string_view secret, std::string_view payload, std::int64_t timestamp);

// "t=<timestamp>,v1=<signature>": the header Stripe would send for this payload.
std::string stripeSignatureHeader(std::string_view secret, std::string_view payload, std::int64_t timestamp);

// The secrets in a STRIPE_WEBHOOK_SECRET value: comma-separated, blanks around each trimmed,
// empty entries dropped ("whsec_new, whsec_old" -> {"whsec_new", "whsec_old"}).
std::vector<std::string> splitWebhookSecrets(std::string_view configValue);

} // namespace storefront::billing
