#include "mail/kinds.h"

namespace storefront::mail {

const std::vector<KindTemplate>& mailKinds() {
    static const std::vector<KindTemplate> kinds = {
        // Account links (auth/links.cpp).
        {"auth_confirm_signup", "Confirm your email address", "Confirm my account"},
        {"auth_recovery", "Reset your password", "Choose a new password"},
        {"auth_invite", "You have been invited", "Accept the invitation"},
        {"auth_email_change", "Confirm your new email address", "Confirm this address"},
        // Security notices (auth/notices.cpp).
        {"password_changed", "Your password was changed", ""},
        {"email_changed", "Your email address was changed", ""},
        {"factor_added", "Two-factor authentication is on", "Open security settings"},
        {"factor_removed", "An authenticator was removed", "Open security settings"},
        {"two_factor_reset_by_staff", "Two-factor authentication was reset", "Turn two-factor authentication on"},
        {"mfa_wrong_codes", "Wrong two-factor codes were entered", ""},
        // Orders and money (billing/).
        {"order_confirmation", "Thank you for your order", ""},
        {"renewal_receipt", "Your subscription renewed", ""},
        // The subscription lifecycle (billing/subscriptions/subscription_mail.cpp).
        {"payment_failed", "Your payment failed", "Update payment method"},
        {"payment_reminder", "Your access ends soon", "Update payment method"},
        {"trial_ending", "Your trial ends soon", "Open your dashboard"},
        {"subscription_cancelled", "Your subscription is cancelled", "Open your dashboard"},
        {"subscription_resumed", "Your subscription continues", "Open your dashboard"},
        {"plan_changed", "Your plan has changed", "Open your dashboard"},
        {"refund", "Your refund", ""},
        {"order_shipped", "Your order is on its way", ""},
        {"order_cancelled", "Your order was cancelled", ""},
        // Teams, enquiries, the companion app.
        {"enterprise_invite", "Your enterprise account is ready", "Choose a password"},
        {"contact", "New Contact Sales enquiry", ""},
        {"wirewrite_inactivity_warning", "Your WireWrite account will be deleted soon", ""},
    };
    return kinds;
}

KindTemplate templateOf(const std::string& kind, const std::string& subject) {
    for (const auto& t : mailKinds())
        if (t.kind == kind) return t;
    return {kind, subject, ""};
}

} // namespace storefront::mail
