// kill -9 under write load: clients place and pay orders, add enterprise members and redeem promo
// codes against the real executable; it is SIGKILLed at a random moment and restarted on the same
// database, round after round. Every write that was answered 2xx must be there exactly once, and
// stock, seats and promo uses must still balance. Seeded (STOREFRONT_CRASH_SEED) and repeated
// STOREFRONT_CRASH_ROUNDS times (default 10).
#include "api/billing_support.h"
#include "api/companion_support.h"
#include "api/crash_support.h"
#include "api/enterprise_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

using namespace testing_support;

namespace {

constexpr int kKillInitialStock = 100000;
constexpr int kKillClients = 6;

// What the clients were told: only 2xx answers count.
struct KillAcknowledged {
    std::mutex mutex;
    std::vector<std::pair<std::string, int>> checkouts; // checkout id, quantity
    std::vector<std::string> paid;                      // checkout ids whose payment answered 303
    std::vector<std::string> members;                   // member ids
    std::vector<std::string> memberEmails;
    std::vector<std::pair<std::string, std::string>> redemptions; // code, worker id
};

} // namespace

TEST(CrashKill, SigkillUnderWriteLoadLosesNoAcknowledgedWriteAndEverythingBalances) {
    const auto seed = crashSeed("CrashKill");
    const int rounds = crashSetting("STOREFRONT_CRASH_ROUNDS", 10);
    std::mt19937 random(seed);

    // The world, arranged through the in-process server: a product with plenty of stock, buyers,
    // a team with a licence of fewer seats than members to come, workers and promo codes.
    auto hardware = createHardware(kKillInitialStock, 1200);
    std::vector<Session> buyers;
    for (int i = 0; i < kKillClients; ++i) buyers.push_back(newBuyer("crash"));
    auto team = createTeam("crash", 100000);
    auto product = createLicensableProduct();
    const auto licenceId = addLicence(team.accountId, product.id, 25);
    std::vector<WorkerSession> workers;
    for (int i = 0; i < 8; ++i) workers.push_back(newWorker("crash"));
    std::vector<nlohmann::json> codes;
    for (int i = 0; i < 100; ++i) codes.push_back(createPromo({{"code", newCode("KILL")}, {"description", "kill -9"}, {"duration_months", 1}}));
    std::vector<std::pair<int, int>> pairs; // (code, worker): each redeemed at most once
    for (int c = 0; c < static_cast<int>(codes.size()); ++c)
        for (int w = 0; w < static_cast<int>(workers.size()); ++w) pairs.emplace_back(c, w);
    std::shuffle(pairs.begin(), pairs.end(), random);
    std::vector<Account> people;
    for (int i = 0; i < 50 * rounds; ++i) people.push_back(createUser("crash-member"));
    std::atomic<std::size_t> nextPerson{0}, nextPair{0};

    KillAcknowledged acked;
    int attempted = 0, unanswered = 0;
    std::vector<int> killAfterMs;
    for (int round = 0; round < rounds; ++round) {
        ChildServer child;
        ASSERT_NO_THROW(child.start()) << "round " << round;
        const int port = child.port();
        const int killAt = std::uniform_int_distribution<int>(150, 1200)(random);
        killAfterMs.push_back(killAt);
        std::atomic<bool> dead{false};
        std::atomic<int> tries{0}, lost{0};
        std::vector<std::thread> clients;
        for (int t = 0; t < kKillClients; ++t) {
            clients.emplace_back([&, t, clientSeed = random()] {
                std::mt19937 mine(clientSeed);
                while (!dead) {
                    ++tries;
                    try {
                        // A short pause between requests, so one round's writes do not use up the
                        // members and codes meant for all rounds.
                        std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(1, 8)(mine)));
                        switch (std::uniform_int_distribution<int>(0, 5)(mine)) {
                        case 0:
                        case 1:
                        case 2: { // place an order and pay it
                            const int quantity = std::uniform_int_distribution<int>(1, 3)(mine);
                            auto r = startCheckout(buyers[t], {{"productSlug", hardware.slug}, {"quantity", quantity}}, port);
                            if (r.status / 100 != 2) break;
                            const std::string id = r.json()["checkoutId"], url = r.json()["url"];
                            {
                                std::lock_guard lock(acked.mutex);
                                acked.checkouts.emplace_back(id, quantity);
                            }
                            auto pay = http(port, "POST", pathOf(url) + "/pay", kTestAddress,
                                            {{"Content-Type", "application/x-www-form-urlencoded"}});
                            if (pay.status == 303) {
                                std::lock_guard lock(acked.mutex);
                                acked.paid.push_back(id);
                            }
                            break;
                        }
                        case 3: { // add a member to the team
                            const auto i = nextPerson++;
                            if (i >= people.size()) break;
                            auto r = sendJson(port, "POST", "/api/v1/enterprise/members", {{"email", people[i].email}},
                                              team.session.headers());
                            if (r.status / 100 == 2) {
                                std::lock_guard lock(acked.mutex);
                                acked.members.push_back(r.json()["member"]["id"]);
                                acked.memberEmails.push_back(people[i].email);
                            }
                            break;
                        }
                        default: { // redeem a promo code
                            const auto i = nextPair++;
                            if (i >= pairs.size()) break;
                            const auto [c, w] = pairs[i];
                            auto r = sendJson(port, "POST", "/api/v1/wirewrite/redeem", {{"code", codes[c]["code"]}},
                                              workers[w].headers());
                            if (r.status / 100 == 2) {
                                std::lock_guard lock(acked.mutex);
                                acked.redemptions.emplace_back(codes[c]["id"], workers[w].workerId);
                            }
                            break;
                        }
                        }
                    } catch (const std::exception&) {
                        ++lost; // the connection died with the server: not acknowledged
                        if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(5));
                    }
                }
            });
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(killAt));
        child.signal(SIGKILL);
        EXPECT_NE(child.waitFor(std::chrono::seconds(10)), -1);
        dead = true;
        for (auto& c : clients) c.join();
        attempted += tries;
        unanswered += lost;
    }

    // Restarted once more on the same database: it starts, answers, and every count balances.
    ChildServer last;
    ASSERT_NO_THROW(last.start());
    EXPECT_EQ(http(last.port(), "GET", "/api/v1/products/" + hardware.slug).status, 200);

    std::cout << "[ figures  ] " << rounds << " rounds, kill after (ms):";
    for (int ms : killAfterMs) std::cout << " " << ms;
    std::cout << "\n[ figures  ] " << attempted << " requests started, " << unanswered << " cut by the kill; acknowledged: "
              << acked.checkouts.size() << " checkouts (" << acked.paid.size() << " paid), " << acked.members.size()
              << " members, " << acked.redemptions.size() << " redemptions" << std::endl;
    EXPECT_GT(acked.checkouts.size(), 0u);
    EXPECT_GT(acked.members.size(), 0u);
    EXPECT_GT(acked.redemptions.size(), 0u);

    // Every acknowledged write is present exactly once.
    int lostWrites = 0;
    for (const auto& [id, quantity] : acked.checkouts) {
        auto n = countRows("SELECT COUNT(*) FROM checkout_sessions c JOIN orders o ON o.id = c.order_id WHERE c.id = ? AND c.quantity = " +
                           std::to_string(quantity), {id});
        if (n != 1) ++lostWrites;
        EXPECT_EQ(n, 1) << "checkout " << id;
    }
    for (const auto& id : acked.paid) {
        EXPECT_EQ(orderStatusOfCheckout(id), "paid") << "checkout " << id;
        EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE id = ? AND stock_state = 'settled'", {id}), 1);
    }
    for (std::size_t i = 0; i < acked.members.size(); ++i) {
        auto n = countRows("SELECT COUNT(*) FROM enterprise_members m JOIN users u ON u.id = m.user_id WHERE m.id = ? "
                           "AND m.enterprise_account_id = ? AND u.email = ?",
                           {acked.members[i], team.accountId, acked.memberEmails[i]});
        if (n != 1) ++lostWrites;
        EXPECT_EQ(n, 1) << "member " << acked.members[i];
    }
    for (const auto& [codeId, workerId] : acked.redemptions) {
        auto n = countRows("SELECT COUNT(*) FROM promo_code_redemptions WHERE promo_code_id = ? AND worker_id = ?", {codeId, workerId});
        if (n != 1) ++lostWrites;
        EXPECT_EQ(n, 1) << "redemption of " << codeId << " by " << workerId;
    }
    std::cout << "[ figures  ] acknowledged writes lost or duplicated: " << lostWrites << std::endl;

    // Nothing is there twice, acknowledged or not.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM (SELECT order_id FROM checkout_sessions WHERE product_id = ? GROUP BY order_id "
                        "HAVING COUNT(*) > 1) d", {hardware.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM checkout_sessions WHERE product_id = ? AND order_id IS NULL", {hardware.id}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM (SELECT user_id FROM enterprise_members WHERE enterprise_account_id = ? "
                        "GROUP BY user_id HAVING COUNT(*) > 1) d", {team.accountId}), 0);

    // Stock: what is on the shelf plus what is reserved or sold is what there was.
    const auto held = countRows("SELECT COALESCE(SUM(stock_reserved), 0) FROM checkout_sessions WHERE product_id = ? "
                                "AND stock_state IN ('reserved', 'settled')", {hardware.id});
    EXPECT_EQ(stockOf(hardware.id) + held, kKillInitialStock);
    // Seats: used_count is the seats held, and seats are given while members wait.
    const auto members = memberCount(team.accountId);
    EXPECT_EQ(usedCount(licenceId), seatRows(licenceId));
    EXPECT_EQ(usedCount(licenceId), std::min<std::int64_t>(25, members));
    // Promo uses: each code's uses_count is its redemptions.
    for (const auto& code : codes) {
        const std::string id = code["id"];
        EXPECT_EQ(countRows("SELECT uses_count FROM promo_codes WHERE id = ?", {id}),
                  countRows("SELECT COUNT(*) FROM promo_code_redemptions WHERE promo_code_id = ?", {id}))
            << "code " << code["code"];
    }
    if (HasFailure()) std::cout << "last server's log:\n" << last.log() << std::endl;
}
