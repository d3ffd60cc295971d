#include "auth/totp.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace storefront::auth;

// RFC 6238 appendix B: the SHA-1 key is the ASCII text "12345678901234567890".
const std::string kRfcSecret = base32Encode("12345678901234567890");

std::int64_t stepAt(std::int64_t unixSeconds) { return unixSeconds / kTotpPeriodSeconds; }

TEST(Totp, Rfc6238AppendixBSha1VectorsLastSixDigits) {
    EXPECT_EQ(kRfcSecret, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    EXPECT_EQ(totpCode(kRfcSecret, stepAt(59)), "287082");
    EXPECT_EQ(totpCode(kRfcSecret, stepAt(1111111109)), "081804");
    EXPECT_EQ(totpCode(kRfcSecret, stepAt(1111111111)), "050471");
    EXPECT_EQ(totpCode(kRfcSecret, stepAt(1234567890)), "005924");
    EXPECT_EQ(totpCode(kRfcSecret, stepAt(2000000000)), "279037");
    EXPECT_EQ(totpCode(kRfcSecret, stepAt(20000000000LL)), "353130"); // past 2038: the step is 64-bit
}

TEST(Totp, CodesAreAlwaysSixDigitsWithLeadingZeros) {
    for (std::int64_t step = 0; step < 300; ++step) {
        auto code = totpCode(kRfcSecret, step);
        ASSERT_EQ(code.size(), 6u) << step;
        EXPECT_EQ(code.find_first_not_of("0123456789"), std::string::npos) << code;
    }
}

TEST(Totp, ASecretThatIsNotBase32IsRefused) {
    EXPECT_THROW(totpCode("not base32!", 1), std::invalid_argument);
}

TEST(Totp, NewSecretsAre160BitBase32AndDiffer) {
    auto a = newTotpSecret(), b = newTotpSecret();
    EXPECT_EQ(a.size(), 32u); // 20 bytes = 160 bits = 32 base32 characters
    ASSERT_TRUE(base32Decode(a));
    EXPECT_EQ(base32Decode(a)->size(), 20u);
    EXPECT_NE(a, b);
}

TEST(Base32, Rfc4648VectorsWithoutPadding) {
    EXPECT_EQ(base32Encode(""), "");
    EXPECT_EQ(base32Encode("f"), "MY");
    EXPECT_EQ(base32Encode("fo"), "MZXQ");
    EXPECT_EQ(base32Encode("foo"), "MZXW6");
    EXPECT_EQ(base32Encode("foob"), "MZXW6YQ");
    EXPECT_EQ(base32Encode("fooba"), "MZXW6YTB");
    EXPECT_EQ(base32Encode("foobar"), "MZXW6YTBOI");
}

TEST(Base32, DecodesPaddedLowerCaseAndSpacedText) {
    EXPECT_EQ(base32Decode("MZXW6YTBOI======"), "foobar");
    EXPECT_EQ(base32Decode("MY======"), "f");
    EXPECT_EQ(base32Decode("mzxw6ytboi"), "foobar");
    EXPECT_EQ(base32Decode("MZXW 6YTB OI"), "foobar"); // as apps show secrets in groups
    EXPECT_EQ(base32Decode(""), "");
}

TEST(Base32, RefusesCharactersOutsideTheAlphabet) {
    EXPECT_FALSE(base32Decode("MZXW1"));   // 1 is not base32
    EXPECT_FALSE(base32Decode("MZXW8"));   // nor 8
    EXPECT_FALSE(base32Decode("MZ-XW"));
    EXPECT_FALSE(base32Decode("MZXW6\n"));
}

TEST(Base32, RoundTripsEveryLengthAndByte) {
    std::string bytes;
    for (int length = 0; length <= 64; ++length) {
        bytes.clear();
        for (int i = 0; i < length; ++i) bytes += static_cast<char>((i * 37 + length * 11) & 0xFF);
        auto decoded = base32Decode(base32Encode(bytes));
        ASSERT_TRUE(decoded) << length;
        EXPECT_EQ(*decoded, bytes) << length;
    }
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    EXPECT_EQ(base32Decode(base32Encode(all)), all);
}

TEST(MatchTotp, AcceptsTheCurrentStepAndOneStepOfSkewEitherWay) {
    const std::int64_t now = 1111111111, step = stepAt(now);
    EXPECT_EQ(matchTotp(kRfcSecret, totpCode(kRfcSecret, step), now), step);
    EXPECT_EQ(matchTotp(kRfcSecret, totpCode(kRfcSecret, step - 1), now), step - 1);
    EXPECT_EQ(matchTotp(kRfcSecret, totpCode(kRfcSecret, step + 1), now), step + 1);
    EXPECT_EQ(matchTotp(kRfcSecret, "050471", now), step);
}

TEST(MatchTotp, RefusesTwoStepsOfSkew) {
    const std::int64_t now = 1111111111, step = stepAt(now);
    EXPECT_FALSE(matchTotp(kRfcSecret, totpCode(kRfcSecret, step - 2), now));
    EXPECT_FALSE(matchTotp(kRfcSecret, totpCode(kRfcSecret, step + 2), now));
    EXPECT_FALSE(matchTotp(kRfcSecret, totpCode(kRfcSecret, step - 100), now));
}

TEST(MatchTotp, RefusesAnythingButExactlySixDigits) {
    const std::int64_t now = 1111111111;
    const std::string good = totpCode(kRfcSecret, stepAt(now));
    ASSERT_TRUE(matchTotp(kRfcSecret, good, now));
    EXPECT_FALSE(matchTotp(kRfcSecret, "", now));
    EXPECT_FALSE(matchTotp(kRfcSecret, good.substr(0, 5), now));
    EXPECT_FALSE(matchTotp(kRfcSecret, good + "0", now));
    EXPECT_FALSE(matchTotp(kRfcSecret, "14050471", now)); // the RFC's 8-digit form
    EXPECT_FALSE(matchTotp(kRfcSecret, " " + good.substr(1), now));
    EXPECT_FALSE(matchTotp(kRfcSecret, good.substr(0, 5) + "a", now));
    EXPECT_FALSE(matchTotp(kRfcSecret, "05047\xD9", now));   // a stray byte
    EXPECT_FALSE(matchTotp(kRfcSecret, "-50471", now));
    EXPECT_FALSE(matchTotp(kRfcSecret, "+50471", now));
    EXPECT_FALSE(matchTotp(kRfcSecret, "\xD9\xA0" "50471", now)); // an Arabic-Indic digit
}

TEST(OtpauthUri, EscapesIssuerAndAccountAndCarriesTheParameters) {
    EXPECT_EQ(otpauthUri("Signalcraft", "kiri@example.co.nz", "JBSWY3DPEHPK3PXP"),
              "otpauth://totp/Signalcraft:kiri%40example.co.nz?secret=JBSWY3DPEHPK3PXP&issuer=Signalcraft"
              "&algorithm=SHA1&digits=6&period=30");
    auto uri = otpauthUri("Signal & Craft: NZ", "a+b:c/d?e#f@x.nz", "JBSWY3DPEHPK3PXP");
    EXPECT_EQ(uri, "otpauth://totp/Signal%20%26%20Craft%3A%20NZ:a%2Bb%3Ac%2Fd%3Fe%23f%40x.nz?secret=JBSWY3DPEHPK3PXP"
                   "&issuer=Signal%20%26%20Craft%3A%20NZ&algorithm=SHA1&digits=6&period=30");
    // Non-ASCII is percent-encoded UTF-8.
    EXPECT_NE(otpauthUri("M\xC4\x81ori", "x@y.nz", "AAAA").find("M%C4%81ori"), std::string::npos);
}

TEST(QrCodeSvg, IsAStandaloneSvgDocument) {
    auto svg = qrCodeSvg(otpauthUri("Signalcraft", "kiri@example.co.nz", newTotpSecret()));
    EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")) << svg.substr(0, 80);
    EXPECT_TRUE(svg.ends_with("</svg>"));
    EXPECT_NE(svg.find("viewBox=\"0 0 "), std::string::npos);
    EXPECT_NE(svg.find("<path fill=\"#000000\" d=\"M"), std::string::npos); // dark modules drawn
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_EQ(qrCodeSvg("same"), qrCodeSvg("same"));
    EXPECT_NE(qrCodeSvg("one"), qrCodeSvg("two"));
}

} // namespace
