// What waits for the staff (GET /api/v1/admin/todo): paid orders with something to ship not yet
// shipped, enquiries not handled, mail the outbox gave up on; each the count of the filtered list
// it links to (orders ?to_ship=true, enquiries ?handled=false, mail ?status=failed). The database
// is shared with the other tests, so counts are compared before and after.
#include "api/admin_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

std::string todoAgo(int secondsAgo) { return testClock().timestampAfter(-secondsAgo); }

nlohmann::json todo() {
    auto res = getJson("/api/v1/admin/todo", callers().admin);
    if (res.status != 200) throw std::runtime_error("todo: " + res.body);
    return res.json();
}

std::int64_t todoCount(const char* key) { return todo().at(key).get<std::int64_t>(); }

std::string todoEnquiry() {
    const auto id = storefront::db::newId();
    env().db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO contact_submissions (id, name, email, company, phone, message, client_ip, created_at) "
                 "VALUES (?, 'Aroha Ngata', 'aroha@example.nz', NULL, '021 555 0100', 'Ten seats.', '203.0.113.5', ?)")
            .bind(id, todoAgo(60))
            .run();
    });
    return id;
}

std::string todoFailedMail() {
    const auto id = storefront::db::newId();
    env().db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO mail_outbox (id, kind, to_address, subject, body_text, status, attempts, next_attempt_at, "
                 "last_error, created_at) VALUES (?, 'signup', 'todo@example.nz', 'Confirm your signup', 'Body', 'failed', 5, ?, "
                 "'550 mailbox unavailable', ?)")
            .bind(id, todoAgo(60), todoAgo(600))
            .run();
    });
    return id;
}

std::vector<std::string> toShipIds(const std::string& q) {
    auto res = getJson("/api/v1/admin/orders?to_ship=true&q=" + q, callers().admin);
    if (res.status != 200) throw std::runtime_error("orders: " + res.body);
    std::vector<std::string> ids;
    const auto body = res.json();
    for (const auto& row : body.at("items")) ids.push_back(row.at("id").get<std::string>());
    return ids;
}

} // namespace

TEST(AdminTodoApi, OnlyStaffAdmins) { expectStaffOnly("GET", "/api/v1/admin/todo"); }

TEST(AdminTodoApi, OrdersToShipArePaidWithSomethingToShipAndLeaveTheCountOnceShipped) {
    const auto before = todoCount("orders_to_ship");
    const auto email = unique("todo-") + "@example.nz";
    auto physical = insertOrder("paid", 1000, todoAgo(50), email);
    insertOrder("paid", 1000, todoAgo(40), email, std::nullopt, "NZD", /*physical=*/false); // digital: nothing to ship
    insertOrder("pending", 1000, todoAgo(30), email);                                       // not paid
    insertOrder("shipped", 1000, todoAgo(20), email);                                       // already shipped
    EXPECT_EQ(todoCount("orders_to_ship"), before + 1);
    // The list the count links to holds exactly that order of this customer's four.
    EXPECT_EQ(toShipIds(email), std::vector<std::string>{physical.id});

    ASSERT_EQ(patchJson("/api/v1/admin/orders/" + physical.id, {{"status", "shipped"}}, callers().admin).status, 200);
    EXPECT_EQ(todoCount("orders_to_ship"), before);
    EXPECT_TRUE(toShipIds(email).empty());
}

TEST(AdminTodoApi, EnquiriesNotHandledAndFailedMailAreCountedUntilDealtWith) {
    const auto enquiriesBefore = todoCount("enquiries_open");
    const auto mailBefore = todoCount("mail_failed");
    const auto enquiry = todoEnquiry();
    const auto mail = todoFailedMail();
    auto now = todo();
    EXPECT_EQ(now["enquiries_open"], enquiriesBefore + 1);
    EXPECT_EQ(now["mail_failed"], mailBefore + 1);

    ASSERT_EQ(patchJson("/api/v1/admin/enquiries/" + enquiry, {{"handled", true}}, callers().admin).status, 200);
    ASSERT_EQ(postJson("/api/v1/admin/mail/" + mail + "/retry", nlohmann::json::object(), callers().admin).status, 200);
    now = todo();
    EXPECT_EQ(now["enquiries_open"], enquiriesBefore);
    EXPECT_EQ(now["mail_failed"], mailBefore);
}

TEST(AdminTodoApi, TheOrdersToShipFilterTakesOnlyTrueOrFalse) {
    auto res = getJson("/api/v1/admin/orders?to_ship=maybe", callers().admin);
    EXPECT_EQ(res.status, 422) << res.body;
}
