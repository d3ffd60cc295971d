// The staff enquiries list (Contact Sales submissions): newest first, filtered by handled,
// searched by name, email or company, paged; and the "Handled" mark, stored and audited.
#include "api/admin_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

std::string enquiryAgo(int secondsAgo) { return testClock().timestampAfter(-secondsAgo); }

std::string insertEnquiryRow(const std::string& name, const std::string& email, const std::optional<std::string>& company,
                          const std::string& createdAt) {
    const auto id = storefront::db::newId();
    env().db->write([&](storefront::db::Tx& tx) {
        tx.query("INSERT INTO contact_submissions (id, name, email, company, phone, message, client_ip, created_at) "
                 "VALUES (?, ?, ?, ?, '021 555 0100', 'Twenty seats, please.', '203.0.113.5', ?)")
            .bind(id, name, email, company, createdAt)
            .run();
    });
    return id;
}

HttpResult markEnquiry(const std::string& id, const nlohmann::json& body, const Headers& h = callers().admin) {
    return patchJson("/api/v1/admin/enquiries/" + id, body, h);
}

} // namespace

TEST(AdminEnquiriesApi, OnlyStaffAdmins) {
    const auto id = insertEnquiryRow("Only Staff", unique("only-") + "@example.nz", std::nullopt, enquiryAgo(60));
    expectStaffOnly("GET", "/api/v1/admin/enquiries");
    expectStaffOnly("PATCH", "/api/v1/admin/enquiries/" + id, {{"handled", true}});
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM contact_submissions WHERE id = ? AND handled_at IS NULL", {id}), 1);
    EXPECT_EQ(auditCount("enquiry.handled", id), 0);
}

TEST(AdminEnquiriesApi, TheListIsNewestFirstFilteredSearchedAndPaged) {
    const auto tag = unique("enq");
    const auto first = insertEnquiryRow("Aroha " + tag, "aroha@example.nz", std::string("Kiwi Rail"), enquiryAgo(3000));
    const auto second = insertEnquiryRow("Ben Smith", tag + "@example.nz", std::nullopt, enquiryAgo(2000));
    const auto third = insertEnquiryRow("Chen Li", "chen@example.nz", "Sparks " + tag + " Ltd", enquiryAgo(1000));

    auto all = getJson("/api/v1/admin/enquiries?q=" + tag, callers().admin);
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_EQ(all.json()["total"], 3);
    auto items = all.json()["items"];
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0]["id"], third);
    EXPECT_EQ(items[1]["id"], second);
    EXPECT_EQ(items[2]["id"], first);
    EXPECT_EQ(items[2]["name"], "Aroha " + tag);
    EXPECT_EQ(items[2]["company"], "Kiwi Rail");
    EXPECT_EQ(items[2]["phone"], "021 555 0100");
    EXPECT_EQ(items[2]["message"], "Twenty seats, please.");
    EXPECT_EQ(items[2]["handled"], false);
    EXPECT_TRUE(items[2]["handled_at"].is_null());
    EXPECT_TRUE(items[1]["company"].is_null());

    ASSERT_EQ(markEnquiry(second, {{"handled", true}}).status, 200);
    auto handled = getJson("/api/v1/admin/enquiries?handled=true&q=" + tag, callers().admin);
    ASSERT_EQ(handled.status, 200);
    EXPECT_EQ(handled.json()["total"], 1);
    EXPECT_EQ(handled.json()["items"][0]["id"], second);
    auto open = getJson("/api/v1/admin/enquiries?handled=false&q=" + tag, callers().admin);
    EXPECT_EQ(open.json()["total"], 2);
    EXPECT_EQ(open.json()["items"][0]["id"], third);

    auto paged = getJson("/api/v1/admin/enquiries?q=" + tag + "&page_size=2&page=2", callers().admin);
    ASSERT_EQ(paged.json()["items"].size(), 1u);
    EXPECT_EQ(paged.json()["items"][0]["id"], first);
    EXPECT_EQ(getJson("/api/v1/admin/enquiries?q=_" + tag, callers().admin).json()["total"], 0);
}

TEST(AdminEnquiriesApi, BadFiltersAre422) {
    for (const std::string& query : std::vector<std::string>{"handled=yes", "handled=1", "page=0", "page_size=500", "q=" + std::string(255, 'q')}) {
        auto res = getJson("/api/v1/admin/enquiries?" + query, callers().admin);
        EXPECT_EQ(res.status, 422) << query << " " << res.body;
    }
}

TEST(AdminEnquiriesApi, TheHandledMarkIsStoredAndAudited) {
    const auto id = insertEnquiryRow("Handled Mark", unique("mark-") + "@example.nz", std::nullopt, enquiryAgo(30));
    auto res = markEnquiry(id, {{"handled", true}});
    ASSERT_EQ(res.status, 200) << res.body;
    auto e = res.json()["enquiry"];
    EXPECT_EQ(e["handled"], true);
    EXPECT_FALSE(e["handled_at"].is_null());
    EXPECT_EQ(e["handled_by"]["id"], callers().adminId);
    EXPECT_EQ(e["handled_by"]["email"], callers().adminEmail);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM contact_submissions WHERE id = ? AND handled_at IS NOT NULL AND handled_by = ?",
                        {id, callers().adminId}),
              1);
    EXPECT_EQ(auditCount("enquiry.handled", id), 1);

    // The same mark again changes nothing.
    ASSERT_EQ(markEnquiry(id, {{"handled", true}}).status, 200);
    EXPECT_EQ(auditCount("enquiry.handled", id), 1);

    auto undone = markEnquiry(id, {{"handled", false}});
    ASSERT_EQ(undone.status, 200);
    EXPECT_EQ(undone.json()["enquiry"]["handled"], false);
    EXPECT_TRUE(undone.json()["enquiry"]["handled_by"].is_null());
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM contact_submissions WHERE id = ? AND handled_at IS NULL AND handled_by IS NULL", {id}), 1);
    EXPECT_EQ(auditCount("enquiry.unhandled", id), 1);
}

TEST(AdminEnquiriesApi, BadMarksAre4xxAndChangeNothing) {
    const auto id = insertEnquiryRow("Bad Mark", unique("bad-") + "@example.nz", std::nullopt, enquiryAgo(30));
    for (const auto& body : {nlohmann::json::object(), nlohmann::json{{"handled", nullptr}}, nlohmann::json{{"handled", "true"}},
                             nlohmann::json{{"handled", 1}}}) {
        auto res = markEnquiry(id, body);
        EXPECT_EQ(res.status, 422) << body.dump();
        EXPECT_EQ(res.json()["code"], "validation_failed");
    }
    EXPECT_EQ(sendRaw("PATCH", "/api/v1/admin/enquiries/" + id, "[true]", "application/json", callers().admin).status, 400);
    EXPECT_EQ(sendRaw("PATCH", "/api/v1/admin/enquiries/" + id, "", "application/json", callers().admin).status, 400);
    auto unknown = markEnquiry(storefront::db::newId(), {{"handled", true}});
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.json()["code"], "enquiry_not_found");
    EXPECT_EQ(markEnquiry("nope", {{"handled", true}}).status, 404);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM contact_submissions WHERE id = ? AND handled_at IS NULL", {id}), 1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE target_id = ?", {id}), 0);
}
