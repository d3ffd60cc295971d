#include "billing/orders/rules.h"

#include "common/nz_time.h"

#include <sodium.h>

#include <chrono>
#include <stdexcept>

namespace storefront::billing {

std::string newOrderNumber() {
    static constexpr char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base 32
    unsigned char bytes[8];
    randombytes_buf(bytes, sizeof bytes);
    std::string out = "SC-";
    for (int i = 0; i < 8; ++i) {
        if (i == 4) out += '-';
        out += kAlphabet[bytes[i] % 32]; // 256 is a multiple of 32: no bias
    }
    return out;
}

std::string randomHex(std::size_t bytes) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    std::string raw(bytes, '\0');
    randombytes_buf(raw.data(), raw.size());
    std::string hex(bytes * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
    hex.pop_back();
    return hex;
}

int daysRemaining(std::int64_t end, std::int64_t now) {
    if (end <= now) return 0;
    return static_cast<int>((end - now + 86399) / 86400);
}

bool isLive(const std::string& status) { return status == "active" || status == "trialing"; }

std::int64_t graceEnd(std::int64_t pastDueSince, int graceDays) { return pastDueSince + std::int64_t(graceDays) * 86400; }

ValidationResult validate(const std::optional<SubscriptionState>& state, std::int64_t now, int graceDays) {
    ValidationResult r;
    if (!state) {
        r.status = "none";
        r.message = "No subscription found";
        return r;
    }
    r.expiresAt = state->periodEnd;
    if (state->status == "past_due") {
        // Dunning: the provider retries the card while access lasts the grace period.
        const auto end = graceEnd(state->pastDueSince.value_or(now), graceDays);
        r.status = "past_due";
        r.expiresAt = end;
        if (end > now) {
            r.valid = true;
            r.daysRemaining = daysRemaining(end, now);
            r.message = "Payment failed: update your payment method by " +
                        nz::longDate(nz::Instant(std::chrono::seconds(end))) + " to keep access.";
        } else {
            r.message = "Payment overdue: update your payment method to restore access.";
        }
        return r;
    }
    if (state->status == "trialing" && state->trialEnd) r.expiresAt = state->trialEnd;
    const bool live = isLive(state->status);
    const bool lapsed = r.expiresAt && *r.expiresAt <= now;
    if (live && !lapsed) {
        r.valid = true;
        r.status = state->status == "active" ? "active" : "trial";
        r.message = state->status == "active" ? "Subscription active" : "Trial active";
        r.daysRemaining = r.expiresAt ? daysRemaining(*r.expiresAt, now) : 0;
        return r;
    }
    if (live || state->status == "expired") {
        r.status = "expired";
        r.message = "Subscription expired";
    } else if (state->status == "cancelled") {
        r.status = "cancelled";
        r.message = "Subscription cancelled";
    } else {
        r.status = "pending";
        r.message = "Payment pending";
    }
    return r;
}

ValidationResult enterpriseLicence() {
    ValidationResult r;
    r.valid = true;
    r.status = "active";
    r.message = "Enterprise licence active";
    return r;
}

std::string subscriptionSource(const std::string& provider) {
    if (provider == "stripe") return "stripe_subscription";
    if (provider == "local") return "test_checkout";
    std::string out;
    for (char c : provider) out += (c == ' ' || c == '-') ? '_' : c;
    return out;
}

std::int64_t addInterval(std::int64_t epochSeconds, const std::string& unit, int count) {
    using namespace std::chrono;
    const sys_seconds t{seconds{epochSeconds}};
    const sys_days day = floor<days>(t);
    const auto timeOfDay = t - day;
    year_month_day ymd{day};
    year_month ym{ymd.year(), ymd.month()};
    ym = unit == "year" ? ym + years{count} : ym + months{count};
    const auto last = year_month_day_last{ym.year(), month_day_last{ym.month()}}.day();
    const year_month_day moved{ym.year(), ym.month(), std::min(ymd.day(), last)};
    return (sys_days{moved} + timeOfDay).time_since_epoch().count();
}

bool isSafeReturnPath(const std::string& path) {
    if (path.empty() || path.size() > 512 || path[0] != '/') return false;
    if (path.size() > 1 && (path[1] == '/' || path[1] == '\\')) return false;
    for (unsigned char c : path)
        if (c < 0x20 || c == 0x7f || c == '\\') return false;
    return true;
}

} // namespace storefront::billing
