// The local demo's billing rows (STOREFRONT_DEMO_DATA, which `make run` turns on): a handful of
// customers under @demo.signalcraft.test, orders in every status with their items and history
// (one paid after staff cancelled it), and subscriptions in every status, so each back-office
// screen has rows to look at; for the dashboard's charts, paid orders over the last 30 days and
// ledger entries and subscriptions over the last 12 months. Written once per database (db::runOnce).
#include "auth/user_repository.h"
#include "billing/books/ledger_repository.h"
#include "billing/demo_repository.h"
#include "billing/module.h"
#include "common/nz_time.h"

#include <array>

namespace storefront::billing {

namespace {

constexpr const char* kStaffEmail = "staff@demo.signalcraft.test";

std::string daysAgo(const Clock& clock, int days, int hours = 0) { return clock.timestampAfter(-(days * 86400 + hours * 3600)); }
// Noon on day `day` of the New Zealand month `monthsBack` months before the current one: the chart
// rows land in one calendar month each, whatever today's date (30-day steps can skip a month).
std::string dayOfMonthAgo(const Clock& clock, int monthsBack, int day) {
    const auto today = nz::dateOf(nz::instantOf(clock.now()));
    const auto month = date::year_month(today.year(), today.month()) - date::months(monthsBack);
    const auto at = nz::startOfMonth(month) + std::chrono::hours(24 * (day - 1) + 12);
    return formatTimestamp(at);
}

} // namespace

void Module::demo(db::Database& db) {
    auth::UserRepository users;
    DemoRepository demo;
    db.write([&](db::Tx& tx) {
        const std::array<std::pair<const char*, const char*>, 5> people = {{{"aroha", "Aroha Ngata"},
                                                                            {"ben", "Ben Walker"},
                                                                            {"chloe", "Chloe Tan"},
                                                                            {"dev", "Dev Patel"},
                                                                            {"emma", "Emma Clarke"}}};
        std::vector<std::pair<std::string, std::string>> customers; // id, email
        for (const auto& [handle, name] : people) {
            const std::string email = std::string(handle) + "@demo.signalcraft.test";
            auth::NewUser u;
            u.email = email;
            u.userMetadata = {{"full_name", name}, {"demo", true}};
            u.confirmed = true;
            customers.emplace_back(users.insert(tx, u), email);
        }

        const auto cable = demo.productId(tx, "usb-rs232-cable");
        const std::string cableName = "USB to RS232 Cable";
        int number = 1;
        // One order per status, with the history that led there.
        struct Step {
            const char* to;
            const char* source;
            const char* note;
        };
        struct Plan {
            const char* status;
            int days;
            std::vector<Step> steps;
        };
        const std::vector<Plan> plans = {
            {"pending", 0, {{"pending", "system", "Checkout started"}}},
            {"paid", 2, {{"pending", "system", "Checkout started"}, {"paid", "provider", "Payment received (checkout.session.completed)"}}},
            {"shipped", 6, {{"pending", "system", "Checkout started"}, {"paid", "provider", "Payment received"}, {"shipped", "staff", "Sent with NZ Post"}}},
            {"completed", 12, {{"pending", "system", "Checkout started"}, {"paid", "provider", "Payment received"}, {"shipped", "staff", nullptr}, {"completed", "staff", "Delivered"}}},
            {"cancelled", 18, {{"pending", "system", "Checkout started"}, {"cancelled", "provider", "Not paid (checkout.session.expired)"}}},
        };
        for (std::size_t i = 0; i < plans.size(); ++i) {
            const auto& plan = plans[i];
            const auto& [userId, email] = customers[i];
            DemoOrder o{userId, email, cable, plan.status, cableName, daysAgo(tx.clock(), plan.days, 3)};
            o.statusSource = plan.steps.back().source;
            o.quantity = 1 + static_cast<std::int64_t>(i % 2);
            o.unitAmount = 4900;
            const auto id = demo.insertOrder(tx, o, number++);
            if (plan.status != std::string("pending") && plan.status != std::string("cancelled")) {
                demo.insertLedger(tx, ledger_kind::kOrderPayment, o.quantity * o.unitAmount, "NZD", daysAgo(tx.clock(), plan.days, 1), id);
                invoices_.issueForOrder(tx, id); // the register and GST report have documents to show
            }
            std::optional<std::string> from;
            int seq = 1;
            for (const auto& step : plan.steps) {
                const bool staff = std::string(step.source) == "staff";
                demo.insertHistory(tx, id, seq, daysAgo(tx.clock(), plan.days, 3 - seq), from, step.to, step.source,
                                   staff ? std::optional<std::string>(kStaffEmail) : std::nullopt,
                                   step.note ? std::optional<std::string>(step.note) : std::nullopt);
                from = step.to;
                ++seq;
            }
        }
        // Cancelled by staff, then the provider reported the payment: for staff to refund or reinstate.
        {
            DemoOrder o{customers[1].first, customers[1].second, cable, "cancelled", cableName, daysAgo(tx.clock(), 4, 5)};
            o.statusSource = "staff";
            o.unitAmount = 4900;
            o.paidAfterCancellation = true;
            const auto id = demo.insertOrder(tx, o, number++);
            demo.insertHistory(tx, id, 1, daysAgo(tx.clock(), 4, 5), std::nullopt, "pending", "system", std::nullopt, "Checkout started");
            demo.insertHistory(tx, id, 2, daysAgo(tx.clock(), 4, 4), std::string("pending"), "cancelled", "staff", std::string(kStaffEmail),
                               std::string("Customer asked to cancel by phone"));
            demo.insertHistory(tx, id, 3, daysAgo(tx.clock(), 4, 3), std::string("cancelled"), "cancelled", "provider", std::nullopt,
                               std::string("Payment of $49.00 NZD received after staff cancelled the order "
                                           "(checkout.session.completed); refund or reinstate it."));
            demo.insertLatePayment(tx, id, daysAgo(tx.clock(), 4, 3), 4900);
        }
        // A guest order from a payment link.
        {
            DemoOrder o{std::nullopt, std::string("guest.buyer@demo.signalcraft.test"), std::nullopt, "paid",
                        "Payment link purchase", daysAgo(tx.clock(), 9)};
            o.statusSource = "provider";
            o.unitAmount = 12900;
            const auto id = demo.insertOrder(tx, o, number++);
            demo.insertHistory(tx, id, 1, daysAgo(tx.clock(), 9), std::nullopt, "paid", "provider", std::nullopt,
                               std::string("Paid through a payment link"));
            demo.insertLedger(tx, ledger_kind::kOrderPayment, o.unitAmount, "NZD", daysAgo(tx.clock(), 9), id);
        }

        // Subscriptions in every status (one live one per customer and product).
        if (const auto app = demo.productId(tx, "hhtraff")) {
            const auto plan = demo.firstPlanId(tx, *app);
            const std::array<std::pair<const char*, int>, 5> statuses = {
                {{"active", 20}, {"trialing", 3}, {"pending", 1}, {"cancelled", 60}, {"expired", 120}}};
            for (std::size_t i = 0; i < statuses.size(); ++i) {
                const auto [status, days] = statuses[i];
                const bool live = std::string(status) == "active" || std::string(status) == "trialing";
                demo.insertSubscription(tx, customers[i].first, *app, plan, status, daysAgo(tx.clock(), days),
                                        live ? std::optional<std::string>(tx.clock().timestampAfter(20 * 86400))
                                             : std::optional<std::string>(daysAgo(tx.clock(), days > 30 ? days - 30 : 0)));
            }
            // Dunning and a scheduled end: a renewal declined four days ago (its grace runs), and
            // one set to end at its period end (the customers of the ended ones above).
            demo.insertSubscription(tx, customers[3].first, *app, plan, "past_due", daysAgo(tx.clock(), 34),
                                    std::optional<std::string>(tx.clock().timestampAfter(26 * 86400)),
                                    std::optional<std::string>(daysAgo(tx.clock(), 4)));
            demo.insertSubscription(tx, customers[4].first, *app, plan, "active", daysAgo(tx.clock(), 50),
                                    std::optional<std::string>(tx.clock().timestampAfter(10 * 86400)), std::nullopt, true);
        }

        // For the dashboard's charts. Paid orders over the last 30 days (a weekly rhythm): delivered
        // before the last five days, waiting to ship within them; each with its payment in the ledger.
        constexpr std::array<int, 7> kOrdersPerDay = {2, 0, 1, 3, 1, 2, 4};
        for (int day = 1; day < 30; ++day) {
            for (int k = 0; k < kOrdersPerDay[static_cast<std::size_t>(day % 7)]; ++k) {
                const auto& [userId, email] = customers[static_cast<std::size_t>((day + k) % 5)];
                const bool delivered = day > 5;
                DemoOrder o{userId, email, cable, delivered ? "completed" : "paid", cableName, daysAgo(tx.clock(), day, 2 + k)};
                o.statusSource = delivered ? "staff" : "provider";
                o.quantity = 1 + (day + k) % 3;
                o.unitAmount = 4900;
                const auto id = demo.insertOrder(tx, o, number++);
                demo.insertHistory(tx, id, 1, daysAgo(tx.clock(), day, 2 + k), std::nullopt, "pending", "system", std::nullopt, "Checkout started");
                demo.insertHistory(tx, id, 2, daysAgo(tx.clock(), day, 1 + k), std::string("pending"), "paid", "provider", std::nullopt, "Payment received");
                demo.insertLedger(tx, ledger_kind::kOrderPayment, o.quantity * o.unitAmount, "NZD", daysAgo(tx.clock(), day, 1 + k), id);
                if (delivered) {
                    demo.insertHistory(tx, id, 3, daysAgo(tx.clock(), day - 1), std::string("paid"), "shipped", "staff", std::string(kStaffEmail), "Sent with NZ Post");
                    demo.insertHistory(tx, id, 4, daysAgo(tx.clock(), day - 4), std::string("shipped"), "completed", "staff", std::string(kStaffEmail), "Delivered");
                }
            }
        }
        // Over the last 12 months: subscriptions that began and later ended, their monthly
        // renewals, orders paid in Australian and US dollars, and a refund now and then.
        if (const auto app = demo.productId(tx, "hhtraff")) {
            const auto plan = demo.firstPlanId(tx, *app);
            int n = 0;
            for (int month = 1; month <= 11; ++month) {
                const int day = month * 30 + 10; // days ago
                for (int k = 0; k < 1 + month % 3; ++k) {
                    const auto& userId = customers[static_cast<std::size_t>((month + k) % 5)].first;
                    const int ended = day - 25 - 10 * k; // days ago
                    demo.insertEndedSubscription(tx, userId, *app, plan, k % 2 == 0 ? "cancelled" : "expired", daysAgo(tx.clock(), day - k),
                                                 daysAgo(tx.clock(), ended > 0 ? ended : 1), ++n);
                    const auto subscription = demo.subscriptionId(tx, "sub_chart_" + std::to_string(n));
                    demo.insertLedger(tx, ledger_kind::kSubscriptionPayment, 1500, "NZD", daysAgo(tx.clock(), day - k), std::nullopt, subscription);
                }
                demo.insertLedger(tx, ledger_kind::kOrderPayment, 4900 * (2 + month % 4), "NZD", dayOfMonthAgo(tx.clock(), month, 12));
                demo.insertLedger(tx, ledger_kind::kOrderPayment, 5400 * (1 + month % 2), "AUD", dayOfMonthAgo(tx.clock(), month, 14));
                if (month % 3 == 0) demo.insertLedger(tx, ledger_kind::kOrderPayment, 3500, "USD", dayOfMonthAgo(tx.clock(), month, 16));
                if (month % 4 == 1) demo.insertLedger(tx, ledger_kind::kRefund, -4900, "NZD", dayOfMonthAgo(tx.clock(), month, 18));
            }
        }
    });
}

} // namespace storefront::billing
