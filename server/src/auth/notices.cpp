#include "auth/notices.h"

#include "common/nz_time.h"
#include "mail/mail_message.h"

#include <chrono>

namespace storefront::auth {

namespace {

// "5 April 2026 at 2:30 pm (New Zealand time)".
std::string nzWhen(const Clock& clock) {
    const auto at = nz::instantOf(std::chrono::system_clock::time_point(std::chrono::seconds(clock.epochSeconds())));
    const auto local = at + nz::offsetAt(at);
    const auto day = date::floor<date::days>(local);
    const date::hh_mm_ss time(local - day);
    const int hour = static_cast<int>(time.hours().count());
    const int minute = static_cast<int>(time.minutes().count());
    const std::string mm = (minute < 10 ? "0" : "") + std::to_string(minute);
    return nz::longDate(at) + " at " + std::to_string(hour % 12 == 0 ? 12 : hour % 12) + ":" + mm +
           (hour < 12 ? " am" : " pm") + " (New Zealand time)";
}

} // namespace

void sendNotice(Context& ctx, db::Tx& tx, Notice notice, const std::string& to, const std::string& detail) {
    if (to.empty()) return;
    const auto& site = ctx.settings.siteName;
    const std::string when = nzWhen(tx.clock());
    const std::string security = ctx.publicUrl + "/account/security";
    // What the owner does when it was not them: the same words in every notice.
    const std::string notYou = "If this was not you, reset your password now (\"Forgot password?\" when you sign in at " +
                               ctx.publicUrl + "/) and write to us at " + ctx.settings.supportEmail + ": we will help you get your account back.\n";
    mail::MailMessage m;
    m.to = to;
    switch (notice) {
    case Notice::PasswordChanged:
        m.kind = "password_changed";
        m.subject = "Your " + site + " password was changed";
        m.text = "The password of your " + site + " account was changed on " + when +
                 ". Every other device signed in to your account has been signed out.\n\nIf you made this change, you need do nothing.\n\n" +
                 notYou;
        break;
    case Notice::EmailChanged:
        m.kind = "email_changed";
        m.subject = "The email address of your " + site + " account was changed";
        m.text = "The email address of your " + site + " account was changed on " + when + " from " + to + " to " + detail +
                 ". Mail about your account, your orders and your invoices now goes to the new address, and this one can no "
                 "longer sign in.\n\nIf you made this change, you need do nothing.\n\nIf this was not you, write to us at " +
                 ctx.settings.supportEmail + " from this address straight away: we will check who asked for the change and help you "
                 "get your account back.\n";
        break;
    case Notice::FactorAdded:
        m.kind = "factor_added";
        m.subject = "Two-factor authentication was turned on for your " + site + " account";
        m.text = "An authenticator app (" + detail + ") was added to your " + site + " account on " + when +
                 ". Signing in now needs a code from it after your password.\n\nKeep your recovery codes somewhere safe: they "
                 "are the way in if you lose your phone. You can make a new set at " + security + "\n\n" + notYou;
        break;
    case Notice::FactorRemoved:
        m.kind = "factor_removed";
        m.subject = "An authenticator was removed from your " + site + " account";
        m.text = "An authenticator app (" + detail + ") was removed from your " + site + " account on " + when +
                 ".\n\nYou can see and change your two-factor authentication at " + security + "\n\n" + notYou;
        break;
    case Notice::TwoFactorResetByStaff:
        m.kind = "two_factor_reset_by_staff";
        m.subject = "Our staff reset the two-factor authentication of your " + site + " account";
        m.text = "Our staff removed the two-factor authentication of your " + site + " account on " + when +
                 ", after a request to restore access to it. Signing in now needs only your password, and your recovery codes no longer work.\n\nTurn two-factor "
                 "authentication on again at " + security + "\n\n" + notYou;
        break;
    case Notice::WrongCodes: {
        const int minutes = ctx.settings.mfaAccountWindowSeconds / 60;
        m.kind = "mfa_wrong_codes";
        m.subject = "Someone entered wrong two-factor codes for your " + site + " account";
        m.text = "Someone who knows the password of your " + site + " account entered " +
                 std::to_string(ctx.settings.mfaAccountLimit) + " wrong two-factor codes within " + std::to_string(minutes) +
                 " minutes, the last on " + when + ". To keep your account safe, two-factor codes are refused for up to " +
                 std::to_string(minutes) + " minutes.\n\nIf it was you, wait and try again with a new code from your "
                 "authenticator app or one of your recovery codes.\n\nIf it was not you, someone has your password: change it "
                 "now at " + security + " (or with \"Forgot password?\" when you sign in at " + ctx.publicUrl +
                 "/), which signs out every other device, and write to us at " + ctx.settings.supportEmail + ".\n";
        break;
    }
    }
    ctx.outbox.enqueue(tx, m);
}

} // namespace storefront::auth
