// Licences grant the apps: a member of an active account holding a seat of a product's licence
// gets it in validate-subscription and the dashboard; and used_count never drifts from the seats.
#include "api/enterprise_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace testing_support;

namespace {

nlohmann::json validate(const Session& session, const std::string& slug) {
    auto res = postJson("/functions/v1/validate-subscription", {{"productSlug", slug}}, session.headers());
    if (res.status != 200) throw std::runtime_error("validate-subscription: " + res.body);
    return res.json();
}

nlohmann::json dashboard(const Session& session) {
    auto res = getJson("/api/v1/account/dashboard", session.headers());
    if (res.status != 200) throw std::runtime_error("dashboard: " + res.body);
    return res.json();
}


} // namespace

TEST(EnterpriseLicenceApi, AMemberHoldingASeatHasTheProductUntilTheAccountIsDeactivated) {
    auto team = createTeam("grant");
    auto product = createLicensableProduct();
    const auto licenceId = addLicence(team.accountId, product.id, 2); // the admin holds one
    Account seated, waiting;
    const auto seatedId = addNewMember(team, &seated);
    addNewMember(team, &waiting); // no seat left for them
    auto seatedSession = signIn(seated, newClientIp());
    auto waitingSession = signIn(waiting, newClientIp());
    auto customer = signIn(createUser("grant-customer"), newClientIp());

    auto valid = validate(seatedSession, product.slug);
    EXPECT_EQ(valid["valid"], true);
    EXPECT_EQ(valid["status"], "active");
    EXPECT_EQ(valid["expiresAt"], nullptr);
    EXPECT_EQ(validate(team.session, product.slug)["valid"], true);
    EXPECT_EQ(validate(waitingSession, product.slug)["valid"], false);
    EXPECT_EQ(validate(waitingSession, product.slug)["status"], "none");
    EXPECT_EQ(validate(customer, product.slug)["valid"], false);

    auto board = dashboard(seatedSession);
    EXPECT_EQ(board["account_type"], "Enterprise");
    ASSERT_EQ(board["active_subscriptions"].size(), 1u);
    EXPECT_EQ(board["active_subscriptions"][0]["product_slug"], product.slug);
    EXPECT_EQ(board["active_subscriptions"][0]["status"], "active");
    EXPECT_EQ(board["active_subscriptions"][0]["subscription_source"], "enterprise_licence");
    EXPECT_EQ(dashboard(team.session)["account_type"], "Enterprise");
    EXPECT_EQ(dashboard(waitingSession)["account_type"], "Enterprise");
    EXPECT_EQ(dashboard(waitingSession)["active_subscriptions"].size(), 0u);
    EXPECT_EQ(dashboard(customer)["account_type"], "Individual");

    // The team page says who holds a seat.
    auto page = getJson("/api/v1/enterprise", team.session.headers()).json();
    ASSERT_EQ(page["members"].size(), 3u);
    EXPECT_EQ(page["members"][1]["seat_product_ids"], nlohmann::json::array({product.id}));
    EXPECT_EQ(page["members"][2]["seat_product_ids"], nlohmann::json::array());
    EXPECT_EQ(page["licences"][0]["used_count"], 2);

    // Removing the seated member frees the seat at once; the waiting member takes it.
    ASSERT_EQ(del("/api/v1/enterprise/members/" + seatedId, team.session.headers()).status, 200);
    EXPECT_EQ(validate(seatedSession, product.slug)["valid"], false);
    EXPECT_EQ(dashboard(seatedSession)["account_type"], "Individual");
    EXPECT_EQ(validate(waitingSession, product.slug)["valid"], true);
    EXPECT_EQ(usedCount(licenceId), 2);

    // Deactivated: the members lose access; reactivated: they have it again.
    ASSERT_EQ(patchJson("/api/v1/admin/enterprise-accounts/" + team.accountId, {{"is_active", false}}, staff()).status, 200);
    EXPECT_EQ(validate(waitingSession, product.slug)["valid"], false);
    EXPECT_EQ(dashboard(waitingSession)["account_type"], "Individual");
    EXPECT_EQ(dashboard(waitingSession)["active_subscriptions"].size(), 0u);
    ASSERT_EQ(patchJson("/api/v1/admin/enterprise-accounts/" + team.accountId, {{"is_active", true}}, staff()).status, 200);
    EXPECT_EQ(validate(waitingSession, product.slug)["valid"], true);

    // Removing the licence takes the product away.
    ASSERT_EQ(del("/api/v1/admin/enterprise-accounts/" + team.accountId + "/licences/" + licenceId, staff()).status, 200);
    EXPECT_EQ(validate(waitingSession, product.slug)["valid"], false);
}

TEST(EnterpriseLicenceApi, UsedCountNeverDriftsFromTheSeatsHeld) {
    std::mt19937 random(20261125); // seeded: a failure replays
    auto team = createTeam("drift", 7);
    std::vector<LicensedProduct> products;
    for (int i = 0; i < 3; ++i) products.push_back(createLicensableProduct());
    std::vector<Account> people;
    for (int i = 0; i < 10; ++i) people.push_back(createUser("drift"));
    const std::string accountPath = "/api/v1/admin/enterprise-accounts/" + team.accountId;
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    auto quantity = [&] { return static_cast<int>(pick(6)); };

    auto check = [&](int step) {
        const auto licences = getJson(accountPath, staff()).json()["licences"];
        const auto members = memberCount(team.accountId);
        for (const auto& l : licences) {
            const std::string id = l["id"];
            const auto used = usedCount(id);
            ASSERT_EQ(used, seatRows(id)) << "step " << step;
            ASSERT_EQ(used, l["used_count"].get<std::int64_t>()) << "step " << step;
            // Seats are never left free while a member waits for one.
            ASSERT_EQ(used, std::min<std::int64_t>(l["quantity"].get<std::int64_t>(), members)) << "step " << step;
        }
        // Every seat belongs to a member of this account.
        ASSERT_EQ(countRows("SELECT COUNT(*) FROM enterprise_license_seats s JOIN enterprise_licenses l ON l.id = s.license_id "
                            "JOIN enterprise_members m ON m.id = s.member_id WHERE l.enterprise_account_id = ? "
                            "AND m.enterprise_account_id <> l.enterprise_account_id",
                            {team.accountId}),
                  0);
    };

    int refused = 0;
    for (int step = 0; step < 120; ++step) {
        const auto details = getJson(accountPath, staff()).json();
        const auto& licences = details["licences"];
        switch (pick(7)) {
        case 0:
        case 1: { // add someone (maybe already there, maybe over the limit, maybe while inactive)
            auto res = addMember(team, people[pick(people.size())].email);
            if (res.status != 201) ++refused;
            ASSERT_TRUE(res.status == 201 || res.status == 409) << res.body;
            break;
        }
        case 2: { // remove a member (the admin is refused)
            const auto& members = details["members"];
            const std::string id = members[pick(members.size())]["id"];
            auto res = del("/api/v1/enterprise/members/" + id, team.session.headers());
            ASSERT_TRUE(res.status == 200 || res.status == 409) << res.body;
            break;
        }
        case 3: { // add a licence, or change one (maybe below the seats in use: refused)
            const auto& product = products[pick(products.size())];
            auto found = std::find_if(licences.begin(), licences.end(),
                                      [&](const nlohmann::json& l) { return l["product"]["id"] == product.id; });
            if (found == licences.end()) {
                addLicence(team.accountId, product.id, quantity());
            } else {
                auto res = patchJson(accountPath + "/licences/" + (*found)["id"].get<std::string>(), {{"quantity", quantity()}}, staff());
                ASSERT_TRUE(res.status == 200 || res.status == 422) << res.body;
            }
            break;
        }
        case 4: { // remove a licence
            if (licences.empty()) break;
            const std::string id = licences[pick(licences.size())]["id"];
            ASSERT_EQ(del(accountPath + "/licences/" + id, staff()).status, 200);
            break;
        }
        case 5: // deactivate or reactivate
            ASSERT_EQ(patchJson(accountPath, {{"is_active", !details["account"]["is_active"].get<bool>()}}, staff()).status, 200);
            break;
        default: // the limit up or down (never below the team)
            patchJson(accountPath, {{"max_licenses", 2 + static_cast<int>(pick(7))}}, staff());
            break;
        }
        check(step);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(refused, 0); // the sequence did reach the limit and duplicates
}

TEST(EnterpriseLicenceApi, AUserHoldingASeatOrRunningAnAccountIsNotDeletedOutrightButCanBeSoftDeleted) {
    auto team = createTeam("delete");
    auto product = createLicensableProduct();
    const auto licenceId = addLicence(team.accountId, product.id, 2); // the admin and one member
    Account seated;
    addNewMember(team, &seated);
    const std::string users = "/auth/v1/admin/users/";
    const nlohmann::json outright = {{"should_soft_delete", false}};

    auto seatHolder = del(users + seated.id, staff(), outright);
    EXPECT_EQ(seatHolder.status, 409) << seatHolder.body;
    EXPECT_EQ(seatHolder.json()["code"], "user_holds_enterprise_seats");
    auto accountAdmin = del(users + team.admin.id, staff(), outright);
    EXPECT_EQ(accountAdmin.status, 409) << accountAdmin.body;
    EXPECT_EQ(accountAdmin.json()["code"], "user_is_enterprise_admin");
    // Nothing changed: both users, the membership and the seats are as they were.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id IN (?, ?) AND deleted_at IS NULL", {seated.id, team.admin.id}), 2);
    EXPECT_EQ(memberCount(team.accountId), 2);
    EXPECT_EQ(seatRows(licenceId), 2);
    EXPECT_EQ(usedCount(licenceId), 2);

    auto soft = del(users + seated.id, staff(), {{"should_soft_delete", true}});
    EXPECT_EQ(soft.status, 200) << soft.body;
    EXPECT_EQ(usedCount(licenceId), seatRows(licenceId));
}
