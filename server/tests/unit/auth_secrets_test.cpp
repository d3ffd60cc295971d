#include "auth/secrets.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using namespace storefront::auth;

bool isBase64UrlText(const std::string& s) {
    return s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
}

TEST(RandomToken, HasTheLengthOfItsBytesInUnpaddedBase64Url) {
    EXPECT_EQ(randomToken().size(), 32u);   // 24 bytes, 192 bits
    EXPECT_EQ(randomToken(16).size(), 22u); // ceil(16 * 8 / 6)
    EXPECT_EQ(randomToken(1).size(), 2u);
    EXPECT_EQ(fromBase64Url(randomToken(24))->size(), 24u);
}

TEST(RandomToken, UsesOnlyTheUrlSafeAlphabetAndNeverRepeats) {
    std::set<std::string> seen;
    std::set<char> characters;
    for (int i = 0; i < 2000; ++i) {
        auto t = randomToken();
        ASSERT_TRUE(isBase64UrlText(t)) << t;
        characters.insert(t.begin(), t.end());
        seen.insert(t);
    }
    EXPECT_EQ(seen.size(), 2000u);
    EXPECT_GT(characters.size(), 60u); // the whole alphabet turns up, not a narrow part of it
}

TEST(Sha256Hex, MatchesKnownVectors) {
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex(std::string("a\0b", 3)), sha256Hex(std::string("a\0b", 3)));
    EXPECT_NE(sha256Hex(std::string("a\0b", 3)), sha256Hex("a"));
}

TEST(Base64Url, RoundTripsEveryByteWithoutPadding) {
    EXPECT_EQ(base64Url(""), "");
    EXPECT_EQ(base64Url("f"), "Zg");
    EXPECT_EQ(base64Url("foobar"), "Zm9vYmFy");
    EXPECT_EQ(base64Url("\xfb\xff"), "-_8"); // url-safe letters, no '='
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    for (std::size_t n = 0; n <= all.size(); n += 17) {
        auto part = all.substr(0, n);
        auto text = base64Url(part);
        EXPECT_TRUE(isBase64UrlText(text)) << text;
        EXPECT_EQ(fromBase64Url(text), part);
    }
}

TEST(Base64Url, RefusesOtherAlphabetsPaddingAndJunk) {
    EXPECT_FALSE(fromBase64Url("+/8"));      // standard base64
    EXPECT_FALSE(fromBase64Url("Zg=="));     // padded
    EXPECT_FALSE(fromBase64Url("Zm9v YmFy"));
    EXPECT_FALSE(fromBase64Url("Zm9v!"));
}

TEST(Seal, RoundTripsUnderTheSameKeyMaterial) {
    auto sealed = seal("the child token", "parent token");
    EXPECT_TRUE(isBase64UrlText(sealed));
    EXPECT_EQ(sealed.find("the child token"), std::string::npos);
    EXPECT_EQ(unseal(sealed, "parent token"), "the child token");
    EXPECT_EQ(unseal(seal("", "k"), "k"), "");
    // A fresh nonce each time: the same text never seals the same way twice.
    EXPECT_NE(seal("the child token", "parent token"), sealed);
}

TEST(Seal, WrongKeyTamperedOrTruncatedTextOpensToNothing) {
    auto sealed = seal("the child token", "parent token");
    EXPECT_FALSE(unseal(sealed, "another token"));
    EXPECT_FALSE(unseal(sealed, ""));
    for (std::size_t at : {std::size_t{0}, sealed.size() / 2, sealed.size() - 2}) {
        auto tampered = sealed;
        tampered[at] = tampered[at] == 'A' ? 'B' : 'A';
        EXPECT_FALSE(unseal(tampered, "parent token")) << at;
    }
    EXPECT_FALSE(unseal(sealed.substr(0, sealed.size() - 4), "parent token"));
    EXPECT_FALSE(unseal(sealed.substr(0, 10), "parent token"));
    EXPECT_FALSE(unseal("", "parent token"));
    EXPECT_FALSE(unseal("not base64url!", "parent token"));
}

TEST(ConstantTimeEquals, ComparesContentAndLength) {
    EXPECT_TRUE(constantTimeEquals("123456", "123456"));
    EXPECT_FALSE(constantTimeEquals("123456", "123457"));
    EXPECT_FALSE(constantTimeEquals("123456", "12345"));
    EXPECT_TRUE(constantTimeEquals("", ""));
}

} // namespace
