// Recovery codes (auth/second_factor.h): their form, their randomness across a set, and how a
// typed code is read (loosely, as Crockford's base32 allows) or refused (a TOTP code never is one).
#include "auth/second_factor.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace auth = storefront::auth;

TEST(RecoveryCodes, ASetIsTenDistinctCodesOfTwoGroupsOfFive) {
    const auto codes = auth::newRecoveryCodes();
    ASSERT_EQ(codes.size(), 10u);
    EXPECT_EQ(std::set<std::string>(codes.begin(), codes.end()).size(), 10u);
    for (const auto& code : codes) {
        EXPECT_TRUE(std::regex_match(code, std::regex("[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}"))) << code;
        EXPECT_EQ(auth::normalizeRecoveryCode(code), code.substr(0, 5) + code.substr(6));
    }
    // Two sets share no code (50 random bits each).
    const auto again = auth::newRecoveryCodes();
    for (const auto& code : again) EXPECT_EQ(std::count(codes.begin(), codes.end(), code), 0) << code;
}

TEST(RecoveryCodes, ATypedCodeIsReadLooselyAndAnythingElseIsNoCode) {
    EXPECT_EQ(auth::normalizeRecoveryCode("K3X9P-2MV7Q"), "k3x9p2mv7q");
    EXPECT_EQ(auth::normalizeRecoveryCode(" k3x9p 2mv7q "), "k3x9p2mv7q");
    EXPECT_EQ(auth::normalizeRecoveryCode("iloo0-11111"), "11000" "11111"); // i, l: 1; o: 0
    EXPECT_EQ(auth::normalizeRecoveryCode("123456"), std::nullopt);       // a TOTP code
    EXPECT_EQ(auth::normalizeRecoveryCode("k3x9p-2mv7"), std::nullopt);   // nine characters
    EXPECT_EQ(auth::normalizeRecoveryCode("k3x9p-2mv7qq"), std::nullopt); // eleven
    EXPECT_EQ(auth::normalizeRecoveryCode("k3x9p-2mv7u"), std::nullopt);  // u is not in the alphabet
    EXPECT_EQ(auth::normalizeRecoveryCode("k3x9p_2mv7q"), std::nullopt);
    EXPECT_EQ(auth::normalizeRecoveryCode(std::string(40, 'a')), std::nullopt);
    EXPECT_EQ(auth::normalizeRecoveryCode(""), std::nullopt);
}

TEST(RecoveryCodes, TheStoredHashIsOfTheNormalisedCodeAndNeverTheCode) {
    const auto hash = auth::recoveryCodeHash(*auth::normalizeRecoveryCode("K3X9P-2MV7Q"));
    EXPECT_EQ(hash, auth::recoveryCodeHash("k3x9p2mv7q"));
    EXPECT_EQ(hash.size(), 64u);
    EXPECT_EQ(hash.find("k3x9p"), std::string::npos);
    EXPECT_NE(hash, auth::recoveryCodeHash("k3x9p2mv7r"));
}
