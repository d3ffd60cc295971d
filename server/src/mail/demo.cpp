// The local demo's outbox rows (STOREFRONT_DEMO_DATA, which `make run` turns on): mail sent over
// the last days and one that failed for good, so the Mail Outbox screen has rows and "Retry now"
// has something to retry. Written once per database (db::runOnce); addresses under
// @demo.signalcraft.test.
#include "mail/module.h"

#include <vector>

namespace storefront::mail {

void Module::demo(db::Database& db) {
    OutboxRepository queue(db);
    struct Demo {
        const char *kind, *to, *subject, *status;
        int attempts;
        const char* lastError;
        int hoursAgo;
    };
    const std::vector<Demo> demos = {
        {"auth_confirm_signup", "emma@demo.signalcraft.test", "Confirm your Signalcraft account", "sent", 1, nullptr, 200},
        {"order_shipped", "aroha@demo.signalcraft.test", "Your order DEMO-0003 has shipped", "sent", 1, nullptr, 140},
        {"contact", "sales@demo.signalcraft.test", "Contact Sales: Aroha Ngata (Waka Traffic Management)", "sent", 1, nullptr, 3},
        {"refund", "ben@demo.signalcraft.test", "Refund for order DEMO-0002", "sent", 2, nullptr, 50},
        {"factor_added", "aroha@demo.signalcraft.test", "Two-factor authentication was turned on for your Signalcraft account", "sent",
         1, nullptr, 30},
        {"order_shipped", "chloe@demo.signalcraft.test", "Your order DEMO-0002 has shipped", "failed", 5,
         "550 5.1.1 <chloe@demo.signalcraft.test>: Recipient address rejected: mailbox unavailable", 20},
    };
    db.write([&](db::Tx& tx) {
        for (const auto& d : demos) {
            MailMessage m;
            m.kind = d.kind;
            m.to = d.to;
            m.subject = d.subject;
            m.text = "A demo mail (STOREFRONT_DEMO_DATA).\n";
            const auto created = tx.clock().timestampAfter(-d.hoursAgo * 3600);
            const auto settled = tx.clock().timestampAfter(-d.hoursAgo * 3600 + 60 * d.attempts);
            queue.insertDemo(tx, m, d.status, d.attempts, d.lastError ? std::optional<std::string>(d.lastError) : std::nullopt,
                             created, settled);
        }
    });
}

} // namespace storefront::mail
