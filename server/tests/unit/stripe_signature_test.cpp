// Stripe webhook signatures: what verifyStripeSignature accepts, what it refuses and why, and a
// known answer computed outside this code base.
#include "billing/provider/stripe_signature.h"

#include <gtest/gtest.h>

#include <cctype>
#include <ctime>
#include <string>
#include <vector>

namespace {

using namespace storefront::billing;

const std::string kSecret = "whsec_test_5f2b9c1e8a7d4c3b";
const std::string kBody = R"({"id":"evt_test_1","object":"event","type":"checkout.session.completed"})";
constexpr std::int64_t kNow = 1735689600;

SignatureStatus check(const std::string& header, const std::string& body = kBody,
                      const std::vector<std::string>& secrets = {kSecret}, std::int64_t now = kNow) {
    return verifyStripeSignature(header, body, secrets, now).status;
}

TEST(StripeSignature, KnownAnswer) {
    // Computed with the openssl command line, not with this code:
    //   printf '%s' '1735689600.{"id":"evt_test_1","object":"event","type":"checkout.session.completed"}' |
    //   openssl dgst -sha256 -hmac whsec_test_5f2b9c1e8a7d4c3b
    const std::string expected = "d73815f7ee06b11bca9e93f4010dfd89c3491305f64e90accec984f544117ab0";
    EXPECT_EQ(stripeSignature(kSecret, kBody, kNow), expected);
    EXPECT_EQ(stripeSignatureHeader(kSecret, kBody, kNow), "t=1735689600,v1=" + expected);
    EXPECT_EQ(check("t=1735689600,v1=" + expected), SignatureStatus::Valid);
    // Upper-case hex is the same signature.
    std::string upper = expected;
    for (auto& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(check("t=1735689600,v1=" + upper), SignatureStatus::Valid);
}

TEST(StripeSignature, ValidHeaderPassesAndReportsItsTimestamp) {
    const auto result = verifyStripeSignature(stripeSignatureHeader(kSecret, kBody, kNow), kBody, {kSecret}, kNow);
    EXPECT_TRUE(result.ok());
    EXPECT_EQ(result.status, SignatureStatus::Valid);
    EXPECT_EQ(result.timestamp, kNow);
}

TEST(StripeSignature, AlteredBodyFails) {
    const auto header = stripeSignatureHeader(kSecret, kBody, kNow);
    EXPECT_EQ(check(header, kBody + " "), SignatureStatus::NoMatch);
    std::string altered = kBody;
    altered[10] = 'X';
    EXPECT_EQ(check(header, altered), SignatureStatus::NoMatch);
    EXPECT_EQ(check(header, ""), SignatureStatus::NoMatch);
}

TEST(StripeSignature, AlteredTimestampFails) {
    const auto signature = stripeSignature(kSecret, kBody, kNow);
    EXPECT_EQ(check("t=" + std::to_string(kNow + 1) + ",v1=" + signature), SignatureStatus::NoMatch);
}

TEST(StripeSignature, ToleranceIsFiveMinutesEitherWay) {
    const auto signedAt = [](std::int64_t t) { return stripeSignatureHeader(kSecret, kBody, t); };
    EXPECT_EQ(check(signedAt(kNow - 300)), SignatureStatus::Valid);
    EXPECT_EQ(check(signedAt(kNow + 300)), SignatureStatus::Valid);
    EXPECT_EQ(check(signedAt(kNow - 301)), SignatureStatus::StaleTimestamp);
    EXPECT_EQ(check(signedAt(kNow + 301)), SignatureStatus::StaleTimestamp);
    EXPECT_EQ(check(signedAt(0)), SignatureStatus::StaleTimestamp);
    const auto stale = verifyStripeSignature(signedAt(kNow - 301), kBody, {kSecret}, kNow);
    EXPECT_EQ(stale.timestamp, kNow - 301);
}

TEST(StripeSignature, ToleranceCanBeChanged) {
    const auto header = stripeSignatureHeader(kSecret, kBody, kNow - 20);
    EXPECT_EQ(verifyStripeSignature(header, kBody, {kSecret}, kNow, 10).status, SignatureStatus::StaleTimestamp);
    EXPECT_EQ(verifyStripeSignature(header, kBody, {kSecret}, kNow, 20).status, SignatureStatus::Valid);
}

TEST(StripeSignature, SystemClockOverloadAcceptsAFreshSignature) {
    const auto now = static_cast<std::int64_t>(std::time(nullptr));
    EXPECT_TRUE(verifyStripeSignature(stripeSignatureHeader(kSecret, kBody, now), kBody, {kSecret}).ok());
    EXPECT_EQ(verifyStripeSignature(stripeSignatureHeader(kSecret, kBody, now - 3600), kBody, {kSecret}).status,
              SignatureStatus::StaleTimestamp);
}

TEST(StripeSignature, MissingHeader) {
    EXPECT_EQ(check(""), SignatureStatus::MissingHeader);
    EXPECT_EQ(check("   "), SignatureStatus::MissingHeader);
}

TEST(StripeSignature, MalformedHeaders) {
    const auto signature = stripeSignature(kSecret, kBody, kNow);
    for (const std::string& header : {
             std::string("garbage"),
             "v1=" + signature,                           // no timestamp
             "t=,v1=" + signature,                        // empty timestamp
             "t=abc,v1=" + signature,                     // not a number
             "t=-1735689600,v1=" + signature,             // signed
             "t=1735689600.5,v1=" + signature,            // not whole seconds
             "t=1735689600,t=1735689600,v1=" + signature, // two timestamps
             "t=1735689600,v1" + signature,               // item without '='
             "t=1735689600,,v1=" + signature,             // empty item
             "t=1735689600,=x,v1=" + signature,           // empty key
             "t=99999999999999999999,v1=" + signature,    // overflows
         }) {
        EXPECT_EQ(check(header), SignatureStatus::Malformed) << header;
    }
}

TEST(StripeSignature, SpacesAroundItemsAreTolerated) {
    const auto signature = stripeSignature(kSecret, kBody, kNow);
    EXPECT_EQ(check(" t=1735689600 , v1=" + signature + " "), SignatureStatus::Valid);
}

TEST(StripeSignature, NoV1Signature) {
    const auto signature = stripeSignature(kSecret, kBody, kNow);
    EXPECT_EQ(check("t=1735689600"), SignatureStatus::NoV1Signature);
    // v0 is Stripe's test scheme: never accepted, even carrying a correct HMAC.
    EXPECT_EQ(check("t=1735689600,v0=" + signature), SignatureStatus::NoV1Signature);
}

TEST(StripeSignature, AnyOfSeveralV1Matches) {
    const auto good = stripeSignature(kSecret, kBody, kNow);
    const auto other = stripeSignature("whsec_someone_else", kBody, kNow);
    EXPECT_EQ(check("t=1735689600,v1=" + other + ",v1=" + good), SignatureStatus::Valid);
    EXPECT_EQ(check("t=1735689600,v1=" + good + ",v1=" + other), SignatureStatus::Valid);
    EXPECT_EQ(check("t=1735689600,v1=" + other + ",v1=not-hex,v0=" + good + ",v1=" + good), SignatureStatus::Valid);
    EXPECT_EQ(check("t=1735689600,v1=" + other + ",v1=" + other), SignatureStatus::NoMatch);
}

TEST(StripeSignature, NonHexOrShortV1NeverMatches) {
    const auto good = stripeSignature(kSecret, kBody, kNow);
    EXPECT_EQ(check("t=1735689600,v1=" + good.substr(0, 63)), SignatureStatus::NoMatch);
    EXPECT_EQ(check("t=1735689600,v1=" + good + "0"), SignatureStatus::NoMatch);
    EXPECT_EQ(check("t=1735689600,v1="), SignatureStatus::NoMatch);
    EXPECT_EQ(check("t=1735689600,v1=" + std::string(64, 'z')), SignatureStatus::NoMatch);
}

TEST(StripeSignature, RotatedSecretsAcceptEitherAndNothingElse) {
    const std::vector<std::string> secrets = {"whsec_new_secret", "whsec_old_secret"};
    EXPECT_EQ(check(stripeSignatureHeader("whsec_new_secret", kBody, kNow), kBody, secrets), SignatureStatus::Valid);
    EXPECT_EQ(check(stripeSignatureHeader("whsec_old_secret", kBody, kNow), kBody, secrets), SignatureStatus::Valid);
    EXPECT_EQ(check(stripeSignatureHeader("whsec_third_secret", kBody, kNow), kBody, secrets),
              SignatureStatus::NoMatch);
    // During a rotation Stripe signs with both: one header, two v1 values.
    const auto both = "t=1735689600,v1=" + stripeSignature("whsec_old_secret", kBody, kNow) +
                      ",v1=" + stripeSignature("whsec_new_secret", kBody, kNow);
    EXPECT_EQ(check(both, kBody, {"whsec_new_secret"}), SignatureStatus::Valid);
}

TEST(StripeSignature, NoSecretConfigured) {
    EXPECT_EQ(check(stripeSignatureHeader(kSecret, kBody, kNow), kBody, {}), SignatureStatus::NoSecretConfigured);
}

TEST(StripeSignature, BinaryBodiesAreSignedByteForByte) {
    const std::string body("a\0b\xff", 4);
    const auto header = stripeSignatureHeader(kSecret, body, kNow);
    EXPECT_EQ(check(header, body), SignatureStatus::Valid);
    EXPECT_EQ(check(header, std::string("a\0b", 3)), SignatureStatus::NoMatch);
}

TEST(StripeSignature, EveryStatusHasADescription) {
    EXPECT_EQ(describe(SignatureStatus::Valid), "valid");
    EXPECT_EQ(describe(SignatureStatus::MissingHeader), "missing header");
    EXPECT_EQ(describe(SignatureStatus::Malformed), "malformed header");
    EXPECT_EQ(describe(SignatureStatus::NoV1Signature), "no v1 signature");
    EXPECT_EQ(describe(SignatureStatus::NoMatch), "no matching signature");
    EXPECT_EQ(describe(SignatureStatus::StaleTimestamp), "timestamp outside tolerance");
    EXPECT_EQ(describe(SignatureStatus::NoSecretConfigured), "no webhook secret configured");
}

TEST(StripeWebhookSecrets, SplitsTrimsAndDropsEmptyEntries) {
    using V = std::vector<std::string>;
    EXPECT_EQ(splitWebhookSecrets("whsec_a"), V{"whsec_a"});
    EXPECT_EQ(splitWebhookSecrets("whsec_new, whsec_old"), (V{"whsec_new", "whsec_old"}));
    EXPECT_EQ(splitWebhookSecrets(" whsec_a ,,whsec_b,\n"), (V{"whsec_a", "whsec_b"}));
    EXPECT_EQ(splitWebhookSecrets(""), V{});
    EXPECT_EQ(splitWebhookSecrets(" , "), V{});
}

TEST(StripeWebhookSecrets, ASplitListVerifies) {
    const auto secrets = splitWebhookSecrets("whsec_new_secret,whsec_old_secret");
    EXPECT_EQ(check(stripeSignatureHeader("whsec_old_secret", kBody, kNow), kBody, secrets), SignatureStatus::Valid);
}

} // namespace
