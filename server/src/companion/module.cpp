#include "companion/module.h"

#include <array>

namespace storefront::companion {

void Module::routes(http::Router& router) { registerRoutes(router, service_, repo_, status_); }

void Module::jobs(Schedule& schedule) {
    if (!settings_.inactivityEnabled) return;
    // The job thread calls this every round; the job itself runs every inactivityIntervalSeconds
    // (and on one server at a time: InactivityJob::run takes the lock).
    schedule.everyRound([this] {
        const auto now = std::chrono::steady_clock::now();
        if (inactivityRan_ && now - lastInactivityRun_ < std::chrono::seconds(settings_.inactivityIntervalSeconds)) return;
        inactivityRan_ = true;
        lastInactivityRun_ = now;
        inactivity_.run();
    });
}

// A few dozen workers (some pro, a few long inactive), certificates in both states and three
// promo codes; every address under @demo.signalcraft.test.
void Module::demo(db::Database& db) {
    static constexpr std::array<const char*, 36> kNames = {
        "Aroha Ngata",     "Ben Carter",      "Chloe Wilson",   "Daniel Tupou",    "Emma Thompson",   "Finn O'Connor",
        "Grace Lee",       "Hemi Walker",     "Isla Brown",     "Jack Patel",      "Kiri Henare",     "Liam Smith",
        "Mia Robinson",    "Noah Chen",       "Olivia Taylor",  "Paora Wihongi",   "Quinn Harris",    "Ruby Martin",
        "Sam Fifita",      "Tama Rangi",      "Una Kelly",      "Victor Nguyen",   "Wiremu Parata",   "Xavier King",
        "Yasmin Ali",      "Zoe Campbell",    "Arlo Jenkins",   "Bella Murray",    "Cooper Reid",     "Daisy Scott",
        "Eli Morgan",      "Freya Clarke",    "George Singh",   "Hana Kim",        "Ivy Anderson",    "Jonah Stewart"};
    static constexpr std::array<const char*, 8> kSites = {
        "12 Queen Street, Auckland", "45 Cuba Street, Wellington", "8 Colombo Street, Christchurch", "221 George Street, Dunedin",
        "3 Victoria Street, Hamilton", "17 The Strand, Tauranga", "", "90 Devon Street, New Plymouth"};
    const auto nowMs = clock_.epochMillis();
    db.write([&](db::Tx& tx) {
        for (std::size_t i = 0; i < kNames.size(); ++i) {
            std::string name = kNames[i];
            std::string local;
            for (char c : name) {
                if (c == ' ') local += '.';
                else if (std::isalpha(static_cast<unsigned char>(c))) local += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            }
            Worker w;
            w.id = db::newId();
            w.fullName = i == 35 ? std::optional<std::string>() : std::optional<std::string>(name);
            w.email = local + "@demo.signalcraft.test";
            w.licenceNumber = "EW" + std::to_string(120000 + i * 137);
            w.entitlement = i % 4 == 0 ? "pro" : "free";
            if (w.entitlement == "pro" && i % 8 == 0) w.proExpiresAt = addMonths(nowMs, 6);
            const auto joined = nowMs - static_cast<std::int64_t>(200 - i * 5) * kDayMillis;
            // Three long-quiet free workers show on the dashboard's Inactive Accounts.
            const auto active = (i == 5 || i == 9 || i == 13) ? nowMs - 80 * kDayMillis : nowMs - static_cast<std::int64_t>(i % 20) * kDayMillis;
            w.lastActiveAt = timestampAt(active);
            w.createdAt = w.updatedAt = timestampAt(joined);
            repo_.insertWorker(tx, w);
            for (std::size_t k = 0; k < i % 5; ++k) {
                Certificate c;
                c.id = db::newId();
                c.workerId = w.id;
                const auto site = kSites[(i + k) % kSites.size()];
                if (*site) c.siteLocation = site;
                const auto created = joined + static_cast<std::int64_t>(k + 1) * kDayMillis;
                c.createdAt = c.updatedAt = timestampAt(created);
                if ((i + k) % 3 != 0) {
                    c.status = "issued";
                    c.issuedAt = timestampAt(created + 3'600'000);
                    char number[32];
                    std::snprintf(number, sizeof number, "WW-2026-%06lld", static_cast<long long>(repo_.nextCertificateNumber(tx, 2026)));
                    c.number = number;
                } else {
                    c.status = "draft";
                }
                repo_.insertCertificate(tx, c);
            }
        }
        const auto now = timestampAt(nowMs);
        repo_.insertPromoCode(tx, {"WELCOME2026", "Launch offer: 12 months of Pro", 12, 100, timestampAt(nowMs + 90 * kDayMillis), std::nullopt}, now);
        repo_.insertPromoCode(tx, {"LIFETIMEPRO", "Lifetime Pro for early supporters", std::nullopt, 5, std::nullopt, std::nullopt}, now);
        repo_.insertPromoCode(tx, {"TRADESHOW", "Trade show visitors: 3 months of Pro", 3, std::nullopt, std::nullopt, std::nullopt}, now);
    });
}

} // namespace storefront::companion
