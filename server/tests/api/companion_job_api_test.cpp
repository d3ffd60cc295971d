// The WireWrite inactivity job, with the clock moved instead of slept: 74 days no flag; 75 days
// flagged and one warning mail (not another on the next run); 89 days still there; 90 days a free
// worker and their data deleted, audited by id; pro workers kept. One server at a time runs it;
// `storefront jobs run inactivity [--dry-run]` runs it from the shell.
#include "api/companion_support.h"
#include "companion/inactivity_job.h"
#include "db/job_lease.h"
#include "mail/module.h"

#include <gtest/gtest.h>


using namespace testing_support;
namespace companion = storefront::companion;

namespace {

const std::string kWarningKind = "wirewrite_inactivity_warning";

// The job as a server builds it, on the test database, with a clock the test moves.
struct JobRig {
    companion::Settings settings;
    storefront::mail::Settings mailSettings;
    std::unique_ptr<storefront::mail::Module> mail;
    companion::CompanionRepository repo{*env().db};
    std::int64_t base = testClock().epochMillis();
    std::int64_t days = 0;
    // A minute past the day boundary, so "N days" is passed, whatever the milliseconds.
    MillisClock clock{[this] { return base + days * companion::kDayMillis + 60'000; }};
    std::unique_ptr<companion::InactivityJob> job;

    JobRig() {
        mail = std::make_unique<storefront::mail::Module>(*env().db, mailSettings);
        job = std::make_unique<companion::InactivityJob>(*env().db, repo, mail->outbox(), settings, clock);
    }
    companion::InactivityReport at(std::int64_t d, bool dryRun = false) {
        days = d;
        return job->run(dryRun);
    }
};

std::int64_t warnings(const std::string& email) {
    return countRows("SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND to_address = ?", {kWarningKind, email});
}

bool exists(const std::string& workerId) {
    return countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ?", {workerId}) == 1;
}

bool flagged(const std::string& workerId) {
    return countRows("SELECT COUNT(*) FROM worker_profiles WHERE id = ? AND inactivity_warned_at IS NOT NULL", {workerId}) == 1;
}

CommandRun jobsCommand(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"jobs"};
    all.insert(all.end(), args.begin(), args.end());
    return runStorefront(all, {
                                  {"STOREFRONT_DATABASE", env().server->config().database},
                                  {"STOREFRONT_DATA_DIR", ::testing::TempDir() + "/jobs-" + storefront::db::newId()},
                                  {"STOREFRONT_LOG_LEVEL", "warning"},
                              });
}

} // namespace

TEST(CompanionJobApi, SeventyFiveDaysFlagAndWarnOnceNinetyDaysDeleteFreeWorkersOnly) {
    JobRig rig;
    auto quiet = newWorker("quiet");
    auto pro = newWorker("quiet-pro");
    ASSERT_EQ(patchJson("/api/v1/admin/wirewrite/workers/" + pro.workerId, {{"entitlement", "pro"}}, staffHeaders()).status, 200);
    auto certificate = postJson("/api/v1/wirewrite/certificates", {{"site_location", "Quiet site"}}, quiet.headers());
    ASSERT_EQ(certificate.status, 201);
    const auto certificateId = certificate.json()["id"].get<std::string>();
    auto code = createPromo({{"code", newCode("QUIET")}, {"description", "quiet"}, {"duration_months", 1}});
    ASSERT_EQ(postJson("/api/v1/wirewrite/redeem", {{"code", code["code"]}}, quiet.headers()).status, 200);
    ASSERT_EQ(patchJson("/api/v1/admin/wirewrite/workers/" + quiet.workerId, {{"entitlement", "free"}}, staffHeaders()).status, 200);
    // The worker is activity-fresh now: the clock starts here.
    rig.base = testClock().epochMillis();

    EXPECT_TRUE(rig.at(74).ran);
    EXPECT_FALSE(flagged(quiet.workerId));
    EXPECT_EQ(warnings(quiet.account.email), 0);

    auto report = rig.at(75);
    EXPECT_TRUE(report.ran);
    EXPECT_GE(report.warned, 2);
    EXPECT_TRUE(flagged(quiet.workerId));
    EXPECT_TRUE(flagged(pro.workerId));
    EXPECT_EQ(warnings(quiet.account.email), 1);
    EXPECT_EQ(warnings(pro.account.email), 0); // pro accounts are never deleted: nothing to warn about
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM mail_outbox WHERE to_address = ? AND subject LIKE '%WireWrite%'", {quiet.account.email}), 1);

    rig.at(75);
    rig.at(80);
    EXPECT_EQ(warnings(quiet.account.email), 1);

    rig.at(89);
    EXPECT_TRUE(exists(quiet.workerId));

    // A dry run at 90 days counts and changes nothing.
    auto dry = rig.at(90, true);
    EXPECT_TRUE(dry.dryRun);
    EXPECT_GE(dry.deleted, 1);
    EXPECT_TRUE(exists(quiet.workerId));

    auto deleted = rig.at(90);
    EXPECT_GE(deleted.deleted, 1);
    EXPECT_FALSE(exists(quiet.workerId));
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM certificates WHERE id = ?", {certificateId}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM promo_code_redemptions WHERE worker_id = ?", {quiet.workerId}), 0);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM promo_codes WHERE id = ? AND uses_count = 1", {code["id"].get<std::string>()}), 1);
    EXPECT_TRUE(exists(pro.workerId));
    // Audited by id, without the person's data.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'worker.deleted_inactive' AND target_id = ? "
                        "AND actor_role = 'system' AND before_json IS NULL AND after_json IS NULL",
                        {quiet.workerId}),
              1);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'worker.deleted_inactive' AND target_id = ? AND detail LIKE ?",
                        {quiet.workerId, "%" + quiet.account.email + "%"}),
              0);
    // The storefront account itself stays: only the companion profile and its data go.
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM users WHERE id = ?", {quiet.account.id}), 1);
}

TEST(CompanionJobApi, ActivityClearsTheFlagAndANeverWarnedWorkerIsWarnedBeforeDeletion) {
    JobRig rig;
    auto back = newWorker("comes-back");
    rig.base = testClock().epochMillis();
    rig.at(76);
    ASSERT_TRUE(flagged(back.workerId));
    // They open the app (more than a minute since the last recorded activity): the flag goes.
    execSql("UPDATE worker_profiles SET last_active_at = ? WHERE id = ?", {testClock().timestampAfter(-120), back.workerId});
    ASSERT_EQ(getJson("/api/v1/wirewrite/me", back.headers()).status, 200);
    EXPECT_FALSE(flagged(back.workerId));

    // Quiet for 100 days without ever having been warned: warned now, not deleted yet.
    auto never = newWorker("never-warned");
    rig.base = testClock().epochMillis();
    rig.at(100);
    EXPECT_TRUE(exists(never.workerId));
    EXPECT_TRUE(flagged(never.workerId));
    EXPECT_EQ(warnings(never.account.email), 1);
    rig.at(114);
    EXPECT_TRUE(exists(never.workerId));
    rig.at(115);
    EXPECT_FALSE(exists(never.workerId));
}

TEST(CompanionJobApi, TwoServersNeverBothRunTheJob) {
    JobRig rig;
    if (env().db->dialect() == storefront::db::Dialect::PostgreSQL) {
        auto session = env().db->session();
        ASSERT_TRUE(storefront::db::JobLease::tryAdvisoryLock(session, companion::InactivityJob::kAdvisoryKey));
        EXPECT_FALSE(rig.at(0).ran);
        storefront::db::JobLease::advisoryUnlock(session, companion::InactivityJob::kAdvisoryKey);
    } else {
        execSql("INSERT INTO job_leases (name, holder, expires_at) VALUES (?, 'another-server', ?)",
                {companion::InactivityJob::kLeaseName, testClock().timestampAfter(600)});
        EXPECT_FALSE(rig.at(0).ran);
        EXPECT_EQ(jobsCommand({"run", "inactivity"}).exitCode, 75); // EX_TEMPFAIL
        // A crashed holder's lease expires.
        execSql("UPDATE job_leases SET expires_at = ? WHERE name = ?",
                {testClock().timestampAfter(-1), companion::InactivityJob::kLeaseName});
    }
    EXPECT_TRUE(rig.at(0).ran);
    EXPECT_EQ(countRows("SELECT COUNT(*) FROM job_leases"), 0);
}

TEST(CompanionJobApi, TheShellCommandRunsTheJobAndADryRunChangesNothing) {
    auto w = newWorker("shell-quiet");
    execSql("UPDATE worker_profiles SET last_active_at = ? WHERE id = ?", {testClock().timestampAfter(-76 * 86400), w.workerId});
    auto dry = jobsCommand({"run", "inactivity", "--dry-run"});
    EXPECT_EQ(dry.exitCode, 0) << dry.out;
    EXPECT_NE(dry.out.find("dry run"), std::string::npos) << dry.out;
    EXPECT_FALSE(flagged(w.workerId));
    auto real = jobsCommand({"run", "inactivity"});
    EXPECT_EQ(real.exitCode, 0) << real.out;
    EXPECT_TRUE(flagged(w.workerId));
    EXPECT_EQ(warnings(w.account.email), 1);
    EXPECT_EQ(jobsCommand({"run", "something-else"}).exitCode, 64); // EX_USAGE
}
