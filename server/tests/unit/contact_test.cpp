#include "contact/contact_service.h"
#include "mail/mail_message.h"
#include "mail/outbox.h"

#include <gtest/gtest.h>

using namespace storefront;

namespace {
nlohmann::json valid() {
    return {{"name", "Aroha Ngata"}, {"email", "aroha@example.co.nz"}, {"company", "Waka Traffic"},
            {"phone", "+64 21 555 0101"}, {"message", "We need 12 licences.\nCan you call me?"}};
}
} // namespace

TEST(ContactValidation, AcceptsAFullSubmissionAndTrims) {
    nlohmann::json errors;
    auto body = valid();
    body["name"] = "  Aroha Ngata  ";
    auto s = contact::validateContact(body, errors);
    ASSERT_TRUE(s) << errors.dump();
    EXPECT_EQ(s->name, "Aroha Ngata");
    EXPECT_EQ(s->company.value(), "Waka Traffic");
    EXPECT_EQ(s->message, "We need 12 licences.\nCan you call me?");
}

TEST(ContactValidation, CompanyAndPhoneAreOptional) {
    nlohmann::json errors;
    auto body = valid();
    body.erase("company");
    body["phone"] = "";
    auto s = contact::validateContact(body, errors);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->company);
    EXPECT_FALSE(s->phone);
}

TEST(ContactValidation, RequiredFieldsAreNamed) {
    nlohmann::json errors;
    EXPECT_FALSE(contact::validateContact(nlohmann::json::object(), errors));
    EXPECT_TRUE(errors.contains("name"));
    EXPECT_TRUE(errors.contains("email"));
    EXPECT_TRUE(errors.contains("message"));
    EXPECT_FALSE(errors.contains("company"));
}

TEST(ContactValidation, RefusesHeaderInjectionBadEmailsWrongTypesAndLongText) {
    nlohmann::json errors;
    auto body = valid();
    body["name"] = "Eve\r\nBcc: victim@example.com";
    body["email"] = "eve@example.com\nBcc: x@example.com";
    body["company"] = 42;
    body["phone"] = std::string(51, '1');
    body["message"] = std::string(5001, 'x');
    EXPECT_FALSE(contact::validateContact(body, errors));
    EXPECT_TRUE(errors.contains("name"));
    EXPECT_TRUE(errors.contains("email"));
    EXPECT_TRUE(errors.contains("company"));
    EXPECT_TRUE(errors.contains("phone"));
    EXPECT_TRUE(errors.contains("message"));
}

TEST(ContactValidation, LengthsCountCharactersNotBytes) {
    nlohmann::json errors;
    auto body = valid();
    std::string name;
    for (int i = 0; i < 200; ++i) name += "ā"; // two bytes each
    body["name"] = name;
    EXPECT_TRUE(contact::validateContact(body, errors)) << errors.dump();
    body["name"] = name + "a";
    EXPECT_FALSE(contact::validateContact(body, errors));
}

TEST(ContactMail, GoesToSalesWithReplyToTheSender) {
    nlohmann::json errors;
    auto s = contact::validateContact(valid(), errors);
    auto m = contact::salesMail(*s, "sales@signalcraft.co.nz");
    EXPECT_EQ(m.to, "sales@signalcraft.co.nz");
    EXPECT_EQ(m.replyTo, "aroha@example.co.nz");
    EXPECT_NE(m.subject.find("Aroha Ngata"), std::string::npos);
    EXPECT_NE(m.text.find("We need 12 licences."), std::string::npos);
    EXPECT_TRUE(mail::isSafeHeaderValue(m.subject));
}

TEST(MailAddress, PracticalChecks) {
    EXPECT_TRUE(mail::isValidEmailAddress("a.b+c@example.co.nz"));
    EXPECT_FALSE(mail::isValidEmailAddress("no-at-sign"));
    EXPECT_FALSE(mail::isValidEmailAddress("a@b"));
    EXPECT_FALSE(mail::isValidEmailAddress("a@@b.nz"));
    EXPECT_FALSE(mail::isValidEmailAddress("a b@example.nz"));
    EXPECT_FALSE(mail::isValidEmailAddress("a@example..nz"));
    EXPECT_FALSE(mail::isValidEmailAddress("<a@example.nz>"));
    EXPECT_FALSE(mail::isSafeHeaderValue("x\r\nBcc: y"));
}

TEST(MailOutbox, BackoffDoublesAndCapsAtSixHours) {
    EXPECT_EQ(mail::Outbox::backoffSeconds(60, 1), 60);
    EXPECT_EQ(mail::Outbox::backoffSeconds(60, 2), 120);
    EXPECT_EQ(mail::Outbox::backoffSeconds(60, 4), 480);
    EXPECT_EQ(mail::Outbox::backoffSeconds(60, 50), 6 * 3600);
}
